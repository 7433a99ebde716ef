"""Markdown block and inline syntax the loader recognises: named patterns and small line predicates.

The block patterns follow CommonMark where it serves Korean documents and depart from it where it does
not: ``STRUCT`` (①, 1., 가., 제N조, (1), ※ …, English clause numbers) always starts a new line instead of
continuing a paragraph, and indented code blocks are not recognised (items are indented by 4 spaces).
"""

from __future__ import annotations

import re

from jogak.grammar.numbering import CIRCLED_CLASS, GANADA_RANGE, ROMAN_CHAR_CLASS
from jogak.grammar.patterns import label

ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
HR = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
LIST = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$")
QUOTE = re.compile(r"^ {0,3}>[ ]?")
FN_DEF = re.compile(r"^ {0,3}\[\^([^\]\s]+)\]:[ \t]?(.*)$")
REF_DEF = re.compile(r"^ {0,3}\[([^\]^][^\]]*)\]:\s*\S+(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*$")
TABLE_DELIM = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")
HTML_BLOCK_TAG = re.compile(r"^\s*</?([A-Za-z][A-Za-z0-9-]*)(\s[^>]*)?/?>\s*$")
# Korean/legal structural labels that always start a new line (never joined as a soft wrap)
STRUCT = re.compile(
    rf"^(?:\*\*|__)?\s*(?:{CIRCLED_CLASS}|{label('[조장절관편항호]')}|\d{{1,3}}(?:의\d{{1,2}})?\\?[.)]\s|{GANADA_RANGE}\\?[.)]\s|"
    rf"\(\d{{1,3}}\)|\({GANADA_RANGE}\)|{ROMAN_CHAR_CLASS}|[※▶■□○●◎◇◆▷-]\s|부\s*칙|별\s*표|<[^>]*>|"
    # English clause numbering: "2.1 You must …", "(a) …", "(iv) …", "Section 3", "ARTICLE 4"
    r"\d{1,3}(?:\\?\.\d{1,3})+\\?\.?\s|\((?:[a-z]|[ivx]{1,4}|[A-Z])\)\s|(?i:section|article|clause)\s+\d)"
)

ARTICLE_LINE = re.compile(rf"^(?:\*\*)?{label('[조장절관편]', branch=True)}(?:\s*[(（][^)）]*[)）])?(?:\*\*)?$")

HTML_TAGS = frozenset(
    ["a", "abbr", "acronym", "address", "b", "bdi", "bdo", "big", "blink", "blockquote", "br", "button", "center", "cite", "code", "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "font", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "input", "ins", "kbd", "label", "li", "mark", "nav", "ol", "p", "pre", "q", "s", "samp", "section", "small", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul", "var", "wbr", "figure", "figcaption", "picture", "source", "video", "audio", "iframe", "main", "article", "aside", "time", "meta", "link", "script", "style"]
)
INLINE_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?:\s+[^<>]*?)?\s*/?>")
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^\s<>]+)>")
ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#[xX][0-9A-Fa-f]{1,6});")
LINK = re.compile(
    r"!?\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]"
    r"(?:\(\s*<?([^()\s>]*(?:\([^()]*\)[^()\s]*)*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)"
    r"|\[([^\]]*)\])?"
)
BR = re.compile(r"<br\s*/?>", re.I)
ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def strip_comments(lines: list[str]) -> list[str]:
    """Remove HTML comments (possibly multi-line) outside fenced code."""
    out: list[str] = []
    in_comment = False
    fence: str | None = None
    for ln in lines:
        if fence is None and not in_comment:
            m = FENCE.match(ln)
            if m:
                fence = m.group(2)[0] * 3
                out.append(ln)
                continue
        elif fence is not None:
            if ln.strip().startswith(fence):
                fence = None
            out.append(ln)
            continue
        res = []
        i = 0
        while i < len(ln):
            if in_comment:
                j = ln.find("-->", i)
                if j < 0:
                    i = len(ln)
                    break
                in_comment = False
                i = j + 3
            else:
                j = ln.find("<!--", i)
                if j < 0:
                    res.append(ln[i:])
                    break
                res.append(ln[i:j])
                in_comment = True
                i = j + 4
        out.append("".join(res))
    return out


def split_cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    cells: list[str] = []
    cur: list[str] = []
    i = 0
    in_code = False
    while i < len(row):
        ch = row[i]
        if ch == "\\" and i + 1 < len(row) and row[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if ch == "`":
            in_code = not in_code
        if ch == "|" and not in_code:
            cells.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    cells.append("".join(cur))
    return [c.strip() for c in cells]


def block_start(ln: str) -> bool:
    return bool(
        ATX.match(ln) or FENCE.match(ln) or HR.match(ln) or QUOTE.match(ln) or LIST.match(ln)
        or FN_DEF.match(ln) or (ln.lstrip().startswith("|"))
    )
