"""WordprocessingML access: namespaces, a safe XML parser and the small attribute readers every part uses."""

from __future__ import annotations

from typing import Any

from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = "{" + W_NS + "}"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
MC_ALT = "{" + MC_NS + "}AlternateContent"
MC_FALLBACK = "{" + MC_NS + "}Fallback"

# no entity resolution, no network: a DOCX is untrusted input
PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)


def val(el: Any, tag: str, attr: str = "val") -> str | None:
    """``w:val`` (or ``attr``) of the child ``w:<tag>`` of ``el``; None when either is missing."""
    if el is None:
        return None
    c = el.find(W + tag)
    if c is None:
        return None
    return c.get(W + attr)


def on(el: Any) -> bool | None:
    """Tri-state of a toggle property element (w:b, w:vanish): None when absent."""
    if el is None:
        return None
    v = el.get(W + "val")
    return v is None or v.lower() not in ("0", "false", "off", "none")


def to_int(v: Any, default: int = 0) -> int:
    try:
        return int(str(v))
    except (TypeError, ValueError):
        return default


def indent_left(ind: Any) -> float | None:
    """Left indent of a ``w:ind`` element in points (twips / 20); None when it sets none."""
    lv = ind.get(W + "left") or ind.get(W + "start")
    return to_int(lv) / 20 if lv is not None else None


def part_xml(part: Any) -> Any:
    """A package part's XML root, or None when it is not well-formed."""
    try:
        return etree.fromstring(part.blob, PARSER)
    except etree.XMLSyntaxError:
        return None
