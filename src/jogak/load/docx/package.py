"""The DOCX package: zip safety checks, opening with python-docx, the parts the loader reads, core properties.

The zip is checked before python-docx sees it (not a zip / truncated → ``CorruptFileError``; more than
400 MB uncompressed, more than 10,000 members, or a member inflating more than 200× and past 10 MB →
``OversizeError`` "zip bomb suspected"); every member is inflated once so a CRC or deflate error is
reported as corruption rather than surfacing mid-parse.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from jogak.load.docx.ooxml import part_xml
from jogak.load.errors import CorruptFileError, short
from jogak.load.zipguard import inflate_all, open_zip


def check_zip(data: bytes, source: str) -> zipfile.ZipFile:
    """Open ``data`` as a zip and refuse zip bombs and archives that are not Word documents."""
    zf = open_zip(data, source, "DOCX")
    names = set(zf.namelist())
    if "word/document.xml" not in names and "[Content_Types].xml" not in names:
        raise CorruptFileError(source, "corrupt DOCX: no word/document.xml (not a Word document)")
    return zf


def open_document(data: bytes, source: str) -> Any:
    """The python-docx ``Document`` of ``data``, after the zip checks; every failure is a ``LoadError``."""
    zf = check_zip(data, source)
    inflate_all(zf, source, "DOCX")  # a member that fails its CRC or cannot be inflated is corruption
    import docx  # python-docx: imported lazily (the CLI must start fast)
    from docx.opc.exceptions import PackageNotFoundError

    try:
        return docx.Document(io.BytesIO(data))
    except PackageNotFoundError:
        raise CorruptFileError(source, "corrupt DOCX: not a Word package") from None
    except (ValueError, KeyError) as e:
        raise CorruptFileError(source, f"corrupt DOCX: {short(e)}") from None
    except etree.XMLSyntaxError as e:
        raise CorruptFileError(source, f"corrupt DOCX: broken XML ({short(e)})") from None


@dataclass
class Parts:
    """The XML roots the loader reads besides the body (None when a part is missing)."""

    styles: Any = None
    numbering: Any = None
    notes: dict[str, Any] = field(default_factory=dict)  # "footnotes" | "endnotes" → root


def read_parts(d: Any, warnings: list[str]) -> Parts:
    parts = Parts()
    try:
        parts.styles = d.styles.element
    except Exception:  # a package without styles part
        parts.styles = None
    for rel in d.part.rels.values():
        if rel.is_external:
            continue
        rt = rel.reltype.rsplit("/", 1)[-1]
        if rt == "numbering":
            parts.numbering = part_xml(rel.target_part)
        elif rt in ("footnotes", "endnotes"):
            root = part_xml(rel.target_part)
            if root is not None:
                parts.notes[rt] = root
            else:
                warnings.append(f"word/{rt}.xml is not well-formed XML; its notes are skipped")
    return parts


def core_metadata(d: Any) -> dict[str, Any]:
    """Title, author, subject, keywords and created/modified (ISO) from docProps/core.xml."""
    metadata: dict[str, Any] = {}
    try:
        cp = d.core_properties
        for k in ("title", "author", "subject", "keywords"):
            v = getattr(cp, k, None)
            if v:
                metadata[k] = str(v)
        for k in ("created", "modified"):
            v = getattr(cp, k, None)
            if v:
                metadata[k] = v.isoformat()
    except Exception:
        pass
    return metadata
