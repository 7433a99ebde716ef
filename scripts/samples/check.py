"""Check the generated sample documents and print what was verified.

    python scripts/samples/check.py        # exits 1 if any check fails

Needs only pypdf, pdfplumber, python-docx and lxml (no fonts, no reportlab).
"""

from __future__ import annotations

import itertools
import re
import sys
import unicodedata
import zipfile
from collections import Counter
from pathlib import Path

import pdfplumber
from docx import Document
from lxml import etree
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"

failures: list[str] = []


def check(ok: bool, what: str) -> bool:
    print(f"  [{'ok' if ok else 'FAIL'}] {what}")
    if not ok:
        failures.append(what)
    return ok


# ── PDF helpers ────────────────────────────────────────────────────────────────────────────────
def pypdf_text(path: Path) -> tuple[int, str]:
    r = PdfReader(str(path))
    return len(r.pages), "\n".join(p.extract_text() for p in r.pages)


def plumber_lines(page) -> list[dict]:
    return page.extract_text_lines(return_chars=True, strip=False)


def body_size(pdf) -> float:
    sizes = Counter(round(c["size"], 1) for p in pdf.pages for c in p.chars)
    return sizes.most_common(1)[0][0]


def line_font(line) -> tuple[set[str], float]:
    chars = [c for c in line["chars"] if c["text"].strip()]
    return {c["fontname"] for c in chars}, max(c["size"] for c in chars)


def embedded_fonts(path: Path) -> dict[str, bool]:
    out = {}
    r = PdfReader(str(path))
    for page in r.pages:
        fonts = page["/Resources"].get("/Font", {})
        for f in fonts.values():
            f = f.get_object()
            name = str(f.get("/BaseFont"))
            desc = f.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in f:
                desc = f["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            out[name] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    return out


def common_pdf_checks(path: Path, *, pages: int, chars: tuple[int, int], lang: str, folio: bool) -> dict:
    print(f"\n{path.relative_to(ROOT)}")
    n, text = pypdf_text(path)
    check(n == pages, f"pypdf: {n} pages (expected {pages})")
    check(chars[0] <= len(text) <= chars[1], f"pypdf: {len(text):,} characters of text (expected {chars[0]:,}–{chars[1]:,})")
    check("\ufffd" not in text, "pypdf: no U+FFFD replacement characters")
    if lang == "ko":
        hangul = sum(1 for ch in text if "\uac00" <= ch <= "\ud7a3")
        check(hangul > len(text) * 0.4, f"pypdf: Korean extracted ({hangul:,} Hangul syllables)")
    fonts = embedded_fonts(path)
    if lang == "ko":
        nanum = {k: v for k, v in fonts.items() if "Nanum" in k}
        check(all(nanum.values()) and any("NanumGothicBold" in k for k in nanum),
              f"Nanum fonts embedded (subsets): {sorted(nanum)}; others: {sorted(set(fonts) - set(nanum))}")
    else:
        check(any("Bold" in k for k in fonts), f"fonts: {sorted(fonts)} (base-14, not embedded)")
    info = {"pages": n, "chars": len(text)}
    with pdfplumber.open(path) as pdf:
        ptext = "\n".join(p.extract_text() for p in pdf.pages)
        check("(cid:" not in ptext, "pdfplumber: no (cid:NN) glyphs")
        check(all(not p.images for p in pdf.pages), "no images on any page")
        w, h = pdf.pages[0].width, pdf.pages[0].height
        check(abs(w - 595.28) < 1 and abs(h - 841.89) < 1, f"A4 page size ({w:.1f} x {h:.1f} pt)")
        if folio:
            ok = True
            for i, p in enumerate(pdf.pages, 1):
                bottom = [ln for ln in plumber_lines(p) if ln["top"] > h - 60]
                hit = [ln for ln in bottom if ln["text"].strip() == f"- {i} -"]
                ok &= bool(hit) and abs((hit[0]["x0"] + hit[0]["x1"]) / 2 - w / 2) < 3
            check(ok, "folio '- N -' at the bottom centre of every page")
        info["body_size"] = body_size(pdf)
    return info


def heading_checks(path: Path, pattern: re.Pattern, expected: int, body: float) -> None:
    found, bad = 0, []
    with pdfplumber.open(path) as pdf:
        for p in pdf.pages:
            for ln in plumber_lines(p):
                t = ln["text"].strip()
                if pattern.match(t):
                    found += 1
                    names, size = line_font(ln)
                    if not all("Bold" in n for n in names) or size <= body:
                        bad.append((t, names, size))
    check(found == expected, f"{found} heading lines (expected {expected})")
    check(not bad, f"headings are bold and larger than the {body}pt body text {bad[:2] if bad else ''}")


def line_starts(path: Path) -> list[tuple[int, str, str]]:
    """(page, previous line, line) for every text line."""
    out = []
    with pdfplumber.open(path) as pdf:
        prev = ""
        for i, p in enumerate(pdf.pages, 1):
            for ln in plumber_lines(p):
                out.append((i, prev, ln["text"]))
                prev = ln["text"]
    return out


def cjk_midword_breaks(text: str) -> int:
    n = 0
    lines = text.split("\n")
    for a, b in itertools.pairwise(lines):
        if a and b and "\uac00" <= a[-1] <= "\ud7a3" and "\uac00" <= b[0] <= "\ud7a3":
            n += 1
    return n


def footnote_checks(path: Path, expected_notes: int, body: float) -> dict[int, list[str]]:
    """Footnote texts sit below the body in a smaller font; body marks are small raised digits."""
    by_page: dict[int, list[str]] = {}
    marks_by_page: dict[int, list[str]] = {}
    raised_ok = True
    with pdfplumber.open(path) as pdf:
        for i, p in enumerate(pdf.pages, 1):
            lines = plumber_lines(p)
            notes = [ln for ln in lines if line_font(ln)[1] < body - 1 and ln["top"] > p.height * 0.5
                     and re.match(r"^\d+ ", ln["text"]) and ln["top"] < p.height - 40]
            body_lines = [ln for ln in lines if line_font(ln)[1] >= body - 0.5 and 60 < ln["top"] < p.height - 50]
            for ln in notes:
                by_page.setdefault(i, []).append(ln["text"].split(" ", 1)[0])
                if body_lines and ln["top"] < max(b["bottom"] for b in body_lines):
                    raised_ok = False
            # superscript marks: digits smaller than the body size whose bottom is above the baseline of
            # the body characters on the same line
            for ln in body_lines:
                normal = [c for c in ln["chars"] if abs(c["size"] - body) < 0.6 and c["text"].strip()]
                if not normal:
                    continue
                base = max(c["bottom"] for c in normal)
                for c in ln["chars"]:
                    if c["text"].isdigit() and c["size"] < body - 2:
                        marks_by_page.setdefault(i, []).append(c["text"])
                        if not c["bottom"] < base - 1.5:
                            raised_ok = False
    total = sum(len(v) for v in by_page.values())
    check(total == expected_notes, f"{total} footnotes at page bottoms (expected {expected_notes}): {by_page}")
    check(marks_by_page == by_page, f"superscript marks on the same pages as their notes: {marks_by_page}")
    check(raised_ok, "marks are raised above the baseline; notes sit below the last body line")
    return by_page


def crossing_check(path: Path, notes: dict[int, list[str]], body_size: float) -> None:
    """One body paragraph continues across a page break, on a page that carries footnotes."""
    crosses = []
    with pdfplumber.open(path) as pdf:
        for i in range(len(pdf.pages) - 1):
            body = [ln for ln in plumber_lines(pdf.pages[i])
                    if 60 < ln["top"] < pdf.pages[i].height - 50 and line_font(ln)[1] >= body_size - 0.5]
            nxt = [ln for ln in plumber_lines(pdf.pages[i + 1])
                   if 60 < ln["top"] < pdf.pages[i + 1].height - 50 and line_font(ln)[1] >= body_size - 0.5]
            if body and nxt and not body[-1]["text"].rstrip().endswith(("다.", ".", ")")) \
                    and not MARKER.match(nxt[0]["text"]) and not all("Bold" in n for n in line_font(nxt[0])[0]):
                crosses.append((i + 1, body[-1]["text"].strip()[-20:], nxt[0]["text"][:20]))
    cross = [x for x in crosses if x[0] in notes]
    check(bool(cross), f"a paragraph continues across a page break, footnotes at the bottom of that page: {cross}")


def table_check(path: Path) -> None:
    with pdfplumber.open(path) as pdf:
        found = None
        for i, p in enumerate(pdf.pages, 1):
            for t in p.find_tables():
                rows = t.extract()
                if rows and rows[0][0] and rows[0][0].strip() == "결제수단":
                    found = (i, rows, len(p.lines) + len(p.rects))
        ok = bool(found)
        check(ok, "제5조 table found by pdfplumber.find_tables (drawn with lines)")
        if ok:
            i, rows, n = found
            heads = [c.strip() for c in rows[0]]
            check(heads == ["결제수단", "환불 방법", "처리 기간"], f"table header {heads} on page {i}")
            methods = [r[0].replace("\n", "") for r in rows[1:]]
            check(len(rows) == 6, f"table has {len(rows) - 1} payment methods: {methods}")
            check(n >= 6, f"{n} ruling lines/rects on the table page")


# ── structure parity between PDF and DOCX ───────────────────────────────────────────────────────
MARKER = re.compile(r"^([①-⑮]|\d+\.\d+(?= )|\d+\.(?= )|[가-하]\.(?= )|\((?:i|ii|iii|iv|v)\)|\([a-h]\))")


def pdf_structure(path: Path, body: float, leading: float) -> list[str]:
    out = []
    with pdfplumber.open(path) as pdf:
        for p in pdf.pages:
            prev_bottom = None
            for ln in plumber_lines(p):
                names, size = line_font(ln)
                if ln["top"] < 60 or ln["top"] > p.height - 50 or size < body - 0.6:
                    continue  # running header, folio, footnotes
                text = ln["text"].strip()
                bold_line = all("Bold" in n for n in names)
                gap = None if prev_bottom is None else ln["top"] - prev_bottom
                prev_bottom = ln["bottom"]
                if bold_line and size > body:
                    out.append("H " + text)
                    continue
                starts = gap is None or gap > leading - ln["bottom"] + ln["top"] + 1.2
                m = MARKER.match(text)
                if gap is None and not m:
                    starts = False  # first line on a page continuing a paragraph
                if starts and m:
                    out.append("P " + m.group(1))
    return out


def docx_structure(path: Path) -> list[str]:
    doc = Document(str(path))
    out = []
    for p in doc.paragraphs:
        text = p.text.strip()
        if not text:
            continue
        runs = [r for r in p.runs if r.text.strip()]
        is_heading = p.style.name.startswith("Heading") or (runs and all(r.bold for r in runs) and len(text) < 60)
        if is_heading:
            out.append("H " + text)
            continue
        m = MARKER.match(text)
        if m:
            out.append("P " + m.group(1))
    return out


def docx_checks(path: Path, *, notes: int, parties_table: bool) -> None:
    print(f"\n{path.relative_to(ROOT)}")
    doc = Document(str(path))
    check(len(doc.paragraphs) > 40, f"python-docx opens it: {len(doc.paragraphs)} paragraphs, {len(doc.tables)} tables")
    if parties_table:
        ok = False
        for t in doc.tables:
            cells = [c.text for row in t.rows for c in row.cells]
            if "매도인" in cells and "매수인" in cells and any("한빛정밀" in c for c in cells):
                ok = len(t.rows) == 4 and len(t.columns) == 3
        check(ok, "parties block is a real Word table (4 rows x 3 columns: 구분/매도인/매수인)")
    z = zipfile.ZipFile(path)
    names = z.namelist()
    check("word/footnotes.xml" in names, "word/footnotes.xml part present")
    fx = etree.fromstring(z.read("word/footnotes.xml"))
    fns = fx.findall(f"{W}footnote")
    seps = {f.get(f"{W}id"): f.get(f"{W}type") for f in fns if f.get(f"{W}type")}
    check(seps == {"-1": "separator", "0": "continuationSeparator"}, f"separator footnotes {seps}")
    real = [f for f in fns if not f.get(f"{W}type")]
    texts = ["".join(t.text for t in f.iter(f"{W}t")).strip() for f in real]
    check(len(real) == notes and all(texts), f"{len(real)} real footnotes (expected {notes}); first: {texts[0][:40]!r}")
    check(all(f.find(f".//{W}footnoteRef") is not None for f in real), "each footnote starts with <w:footnoteRef/>")
    dx = etree.fromstring(z.read("word/document.xml"))
    refs = [r.get(f"{W}id") for r in dx.iter(f"{W}footnoteReference")]
    check(sorted(refs, key=int) == [f.get(f"{W}id") for f in real], f"w:footnoteReference ids in the body: {refs}")
    rels = z.read("word/_rels/document.xml.rels").decode()
    check("relationships/footnotes" in rels and 'Target="footnotes.xml"' in rels, "document -> footnotes relationship")
    ct = z.read("[Content_Types].xml").decode()
    check('PartName="/word/footnotes.xml"' in ct and "footnotes+xml" in ct, "content-type override for footnotes.xml")
    st = z.read("word/settings.xml").decode()
    check("<w:footnotePr>" in st, "settings.xml has w:footnotePr")
    styles = z.read("word/styles.xml").decode()
    check('w:styleId="FootnoteText"' in styles and 'w:styleId="FootnoteReference"' in styles,
          "FootnoteText / FootnoteReference styles defined")
    check(not any(n.endswith((".jpeg", ".png")) for n in names), "no images in the package")


def parity_check(pdf: Path, docx: Path, body: float, leading: float) -> None:
    a, b = pdf_structure(pdf, body, leading), docx_structure(docx)
    same = a == b
    detail = ""
    if not same:
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                detail = f" first difference at #{i}: pdf={x!r} docx={y!r}"
                break
        else:
            detail = f" lengths {len(a)} vs {len(b)}"
    heads = sum(1 for x in a if x.startswith("H "))
    check(same, f"same clause structure in PDF and DOCX ({heads} headings, {len(a) - heads} marked paragraphs){detail}")


# ── the documents ───────────────────────────────────────────────────────────────────────────────
def main() -> int:
    summary = []
    haru = EX / "haru-market"
    art = re.compile(r"^(제\d+조 \(.+\)|자주 묻는 질문 \(FAQ\)|부칙|부록A \(.+\))$")

    p = haru / "하루마켓_멤버십정책.pdf"
    info = common_pdf_checks(p, pages=2, chars=(1650, 1950), lang="ko", folio=False)
    heading_checks(p, art, 8, info["body_size"])
    _, text = pypdf_text(p)
    check(cjk_midword_breaks(text) >= 3, f"{cjk_midword_breaks(text)} CJK line breaks inside words")
    lines = [ln for _, _, ln in line_starts(p)]
    check(lines[0].strip() == "하루마켓 멤버십 정책", "title line '하루마켓 멤버십 정책'")
    for phrase in ["적립금·쿠폰으로 결제한 금액에는", "일반 리뷰 100포인트, 포토 리뷰 500포인트", "Q.", "A."]:
        check(phrase in text.replace("\n", ""), f"contains {phrase!r}")
    summary.append((p, info))

    p = haru / "하루마켓_멤버십정책@2023.pdf"  # the earlier version (issue 15)
    info = common_pdf_checks(p, pages=2, chars=(1550, 1950), lang="ko", folio=False)
    heading_checks(p, art, 8, info["body_size"])
    _, text = pypdf_text(p)
    for phrase in ["적립일로부터 2년이며", "VIP: 실결제액 50만 원 이상", "이 정책은 2023년 1월 1일부터 시행한다"]:
        check(phrase in text.replace("\n", ""), f"contains {phrase!r}")
    check("종전 정책" not in text, "no transitional 부칙 ② (it came with the 2025 version)")
    summary.append((p, info))

    p = haru / "하루마켓_반품교환환불정책.pdf"
    info = common_pdf_checks(p, pages=3, chars=(2600, 3000), lang="ko", folio=True)
    heading_checks(p, art, 14, info["body_size"])
    _, text = pypdf_text(p)
    joined = text.replace("\n", "")
    for phrase in ["회사 전액 부담", "③ 지연 일수별 보상 금액은 부록A 참조.", "부록A (배송 지연 보상 기준)",
                   "왕복 배송비 6,000원(편도 3,000원)"]:
        check(phrase in joined, f"contains {phrase!r}")
    check(cjk_midword_breaks(text) >= 3, f"{cjk_midword_breaks(text)} CJK line breaks inside words")
    with pdfplumber.open(p) as pdf:
        heads = [any(ln["text"].strip() == "하루마켓 반품·교환·환불 정책" and ln["top"] < 60 for ln in plumber_lines(pg))
                 for pg in pdf.pages]
    check(heads == [False, True, True], f"running header on pages 2–3 only: {heads}")
    table_check(p)
    summary.append((p, info))

    c = EX / "contracts"
    p = c / "물품매매계약서.pdf"
    info = common_pdf_checks(p, pages=4, chars=(4000, 7000), lang="ko", folio=True)
    kart = re.compile(r"^(제\d+조 \(.+\)|부록[AB] \(.+\)|물품매매계약서)$")
    heading_checks(p, kart, 10 + 3 + 3 + 2 + 1, info["body_size"])
    starts = line_starts(p)
    hit = [(pg, prev, ln) for pg, prev, ln in starts if ln.startswith("제3조제2항에 따라")]
    check(bool(hit) and not hit[0][1].rstrip().endswith("."),
          f"a wrapped line starts with '제3조제2항에 따라' (page {hit[0][0] if hit else '?'}), inside a sentence")
    notes = footnote_checks(p, 4, info["body_size"])
    _, text = pypdf_text(p)
    joined = text.replace("\n", "")
    for phrase in ["② 위약금의 구체적인 산정 방법은 부록A 제2조에 따른다.", "부록A 참조", "본문 제7조", "⑤ 다음 각 호의"]:
        check(phrase in joined, f"contains {phrase!r}")
    crossing_check(p, notes, info["body_size"])
    summary.append((p, info))
    docx_checks(c / "물품매매계약서.docx", notes=4, parties_table=True)
    parity_check(p, c / "물품매매계약서.docx", info["body_size"], 16.5)

    p = c / "supply_agreement.pdf"
    info = common_pdf_checks(p, pages=4, chars=(9000, 16000), lang="en", folio=True)
    eart = re.compile(r"^(ARTICLE \d+ .+|SCHEDULE 1 .+|EXHIBIT A .+|SUPPLY AGREEMENT|\d\. [A-Z].+)$")
    heading_checks(p, eart, 7 + 2 + 3 + 1, info["body_size"])
    starts = line_starts(p)
    hit = [(pg, prev, ln) for pg, prev, ln in starts if ln.startswith("Section 4.2")]
    check(bool(hit) and not hit[0][1].rstrip().endswith("."),
          f"a wrapped line starts with 'Section 4.2' in running text (page {hit[0][0] if hit else '?'})")
    notes = footnote_checks(p, 3, info["body_size"])
    crossing_check(p, notes, info["body_size"])
    _, text = pypdf_text(p)
    joined = re.sub(r"\s+", " ", text)
    for phrase in ["as set forth in Schedule 1", "Exhibit A, Section 2", "Section 4.2 of the Agreement",
                   "paragraph 1.2 of Schedule 1", "Subject to Section 4.2", "(ii)", "(b)"]:
        check(phrase in joined, f"contains {phrase!r}")
    summary.append((p, info))
    docx_checks(c / "supply_agreement.docx", notes=3, parties_table=False)
    parity_check(p, c / "supply_agreement.docx", info["body_size"], 13.8)

    p = EX / "caselaw" / "민법판례집.txt"
    print(f"\n{p.relative_to(ROOT)}")
    text = p.read_text(encoding="utf-8")
    cases = re.findall(r"^(\S.*?)\s*\n\((대법원|헌법재판소|서울고등법원)[^\n]*?선고\s+([0-9]{2,4}[가-힣]{1,2}[0-9]{1,6})", text, re.M)
    check(len(cases) >= 8, f"{len(cases)} decisions: {[c[2] for c in cases]}")
    check(text.lstrip().startswith("목차"), "starts with a table of contents")
    check("：" in text and re.search(r"\(1\)\s*$", text, re.M) is not None, "full-width colon titles with (1)/(2) counters")
    check(any(c[1] != "대법원" for c in cases), "includes a non-대법원 decision")
    check(any("다카" in c[2] for c in cases), "includes an old 다카 case number")
    blocks = re.split(r"\n(?=\S[^\n]*\n\((?:대법원|헌법재판소|서울고등법원))", text)
    def holdings(block: str) -> int:  # <판결요지> and <이유 …> sections only
        return sum(len(m) for m in re.findall(r"<(?:판결요지|이유[^>]*)>\n(.*?)(?=\n<|\Z)", block, re.S))

    longest = max(holdings(b) for b in blocks[1:])
    check(longest >= 3000, f"longest 판결요지/이유 text of one decision: {longest:,} characters")
    widths = [sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line) for line in text.splitlines()]
    check(max(widths) <= 81, f"lines wrapped at about 40 Korean characters (max {max(widths)} display columns)")
    for tag in ("<쟁점>", "<판결요지>", "<참조조문>", "<참조판례>"):
        check(tag in text, f"has {tag}")

    print("\nsummary")
    for path, info in summary:
        print(f"  {path.relative_to(ROOT)}: {info['pages']} pages, {info['chars']:,} characters (pypdf), body {info['body_size']}pt")
    print(f"\n{len(failures)} failed" if failures else "\nall checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
