"""Decoding bytes of text-like formats (plain text, Markdown, HTML).

Order, most reliable first (charset detection mis-guesses short Korean text, so it comes last):

1. a BOM (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE);
2. a declared charset (HTML ``<meta charset>``; passed in by the caller);
3. strict UTF-8;
4. UTF-16 without BOM (NUL bytes in every other position);
5. strict EUC-KR, then strict CP949 (its superset), accepted only when the result looks Korean
   (Hangul dominates the non-ASCII characters; CP949's extension syllables are rare in real text);
6. charset-normalizer's best guess;
7. otherwise ``EncodingError``.

Decoded text must not be binary: more than 5 % control characters (other than tab/newline/CR/FF) or
any NUL → ``CorruptFileError`` ("binary data, not text").
"""

from __future__ import annotations

import codecs
import re

from jogak.load.errors import CorruptFileError, EncodingError
from jogak.load.joining import CONTROL_RE, is_hangul

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

_ALIASES = {
    "ks_c_5601-1987": "cp949",
    "ks_c_5601": "cp949",
    "ksc5601": "cp949",
    "x-windows-949": "cp949",
    "windows-949": "cp949",
    "euc-kr": "cp949",  # browsers decode EUC-KR labels as windows-949
    "euckr": "cp949",
    "unicode": "utf-16",
    "iso-8859-1": "cp1252",  # WHATWG: latin1 labels mean windows-1252
    "latin1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
}


def normalize_label(label: str) -> str | None:
    label = label.strip().strip("'\"").lower()
    label = _ALIASES.get(label, label)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def _looks_korean(text: str) -> bool:
    non_ascii = [c for c in text if ord(c) > 0x7F]
    if not non_ascii:
        return True
    hangul = sum(1 for c in non_ascii if is_hangul(c))
    return hangul / len(non_ascii) >= 0.6


def _cp949_extension_ratio(text: str) -> float:
    """Share of Hangul syllables outside KS X 1001 (encodable in CP949 but not EUC-KR)."""
    syll = [c for c in text if 0xAC00 <= ord(c) <= 0xD7A3]
    if not syll:
        return 0.0
    ext = 0
    for c in syll:
        try:
            c.encode("euc-kr")
        except UnicodeEncodeError:
            ext += 1
    return ext / len(syll)


def _check_text(text: str, source: str) -> None:
    if "\x00" in text:
        raise CorruptFileError(source, "binary data, not text (NUL bytes)")
    if not text:
        return
    sample = text[:20000]
    ctrl = len(CONTROL_RE.findall(sample))
    if ctrl > max(2, len(sample) * 0.05):
        raise CorruptFileError(source, "binary data, not text (control characters)")


def decode(data: bytes, source: str, *, declared: str | None = None) -> tuple[str, str]:
    """Return ``(text, encoding_name)``. Line endings are left as they are."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom):].decode(enc.replace("-sig", ""))
            except UnicodeDecodeError as e:
                raise EncodingError(source, f"invalid {enc} text after its byte-order mark "
                                            f"(byte {e.start})") from None
            _check_text(text, source)
            return text, enc
    if declared:
        enc = normalize_label(declared)
        if enc:
            try:
                text = data.decode(enc)
            except (UnicodeDecodeError, LookupError):
                pass
            else:
                _check_text(text, source)
                return text, enc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        _check_text(text, source)
        return text, "utf-8"
    # UTF-16 without BOM: every other byte NUL for ASCII-heavy text
    if len(data) >= 4 and len(data) % 2 == 0:
        even_nul = data[0::2].count(0) / (len(data) / 2)
        odd_nul = data[1::2].count(0) / (len(data) / 2)
        enc = "utf-16-le" if odd_nul > 0.3 and even_nul < 0.05 else (
            "utf-16-be" if even_nul > 0.3 and odd_nul < 0.05 else None)
        if enc:
            try:
                text = data.decode(enc)
            except UnicodeDecodeError:
                pass
            else:
                _check_text(text, source)
                return text, enc
    for enc in ("euc-kr", "cp949"):
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            continue
        if _looks_korean(text) and (enc == "euc-kr" or _cp949_extension_ratio(text) < 0.2):
            _check_text(text, source)
            return text, enc
    guess = _detect(data)
    if guess:
        try:
            text = data.decode(guess)
        except (UnicodeDecodeError, LookupError):
            pass
        else:
            _check_text(text, source)
            return text, guess
    raise EncodingError(source, "could not detect the text encoding (tried UTF-8, UTF-16, EUC-KR/CP949)")


def _detect(data: bytes) -> str | None:
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover
        return None
    try:
        best = from_bytes(data[:200_000]).best()
    except Exception:
        return None
    if best is None:
        return None
    return normalize_label(best.encoding)


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.I)


def sniff_html_charset(data: bytes) -> str | None:
    """The charset declared in the first 4 KB of an HTML document (``<meta charset>``/http-equiv)."""
    m = _META_CHARSET.search(data[:4096])
    if not m:
        return None
    return m.group(1).decode("ascii", "replace")


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
