"""HWP 5.0 loader (한글 binary documents): ``olefile`` (BSD) opens the OLE container; the record reader is
our own, written from Hancom's published format description ("한글 문서 파일 형식 5.0").

* ``container``: FileHeader checks (signature, version, compression; password / 배포용 / DRM documents
  raise ``EncryptedFileError``), streams inflated under a size budget (deflate-bomb guard).
* ``records``: the tagged record stream and its level tree.
* ``docinfo``: character shapes, paragraph shapes, numbering definitions, style names.
* ``body``: paragraphs with their control characters, tables (rows in reading order, cells joined with
  " | "), footnotes/endnotes (marks in the body, notes after ``body_end``), text boxes, captions.

Headers and footers are page furniture and hidden comments are not text. Pages are counted from explicit
page breaks and section starts only.
"""

from __future__ import annotations

from jogak.load.errors import CorruptFileError
from jogak.load.hangul import HangulDoc
from jogak.load.hwp.body import Walker
from jogak.load.hwp.container import open_hwp
from jogak.load.hwp.docinfo import parse_docinfo
from jogak.load.hwp.records import RecordError
from jogak.model import Document


def load_bytes(data: bytes, source: str) -> Document:
    f = open_hwp(data, source)
    try:
        info = parse_docinfo(f.docinfo, f.version)
        doc = HangulDoc("hwp")
        walker = Walker(info, doc)
        for k, section in enumerate(f.sections):
            walker.section(section, first=(k == 0))
    except RecordError as e:
        raise CorruptFileError(source, f"corrupt HWP: {e}") from None
    warnings: list[str] = []
    if walker.pua_dropped:
        warnings.append(f"{walker.pua_dropped} private-use character(s) (한글 옛한글/symbol codes) were dropped, "
                        "as 한글's own text preview does")
    return doc.build(source, metadata={"hwp_version": f.version_str}, warnings=warnings)
