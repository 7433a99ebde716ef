"""Render a parsed sample source to DOCX with python-docx, adding real Word footnotes.

python-docx has no footnote API, so the footnotes part (/word/footnotes.xml) is built with lxml:
separator (id -1) and continuation separator (id 0) footnotes, one <w:footnote> per note, a
footnotes relationship from the document part (python-docx writes the content-type override for the
new part), <w:footnotePr> in settings.xml, and <w:footnoteReference> runs in the body.

The zip is rewritten with fixed timestamps so the output bytes are reproducible.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

from _source import Source, inline_tokens
from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import qn
from docx.shared import Mm, Pt, RGBColor
from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
CT_FOOTNOTES = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
FIXED_TIME = dt.datetime(2025, 3, 10, 9, 0, 0)
ZIP_TIME = (2025, 3, 10, 9, 0, 0)


def _w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


def _set_run_fonts(run_or_style_font, latin: str, east_asia: str) -> None:
    el = run_or_style_font.element if hasattr(run_or_style_font, "element") else run_or_style_font
    rpr = el.get_or_add_rPr()
    rfonts = rpr.find(qn("w:rFonts"))
    if rfonts is None:
        rfonts = etree.SubElement(rpr, qn("w:rFonts"))
    for attr in ("w:ascii", "w:hAnsi", "w:cs"):
        rfonts.set(qn(attr), latin)
    rfonts.set(qn("w:eastAsia"), east_asia)
    for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
        if rfonts.get(qn(attr)) is not None:
            del rfonts.attrib[qn(attr)]


class _Fonts:
    def __init__(self, lang: str):
        if lang == "ko":
            self.latin, self.east = "Malgun Gothic", "맑은 고딕"
            self.body, self.heading, self.part, self.title = 10, 11, 12, 16
        else:
            self.latin, self.east = "Times New Roman", "Times New Roman"
            self.body, self.heading, self.part, self.title = 11, 11, 12, 14


def render(src: Source, out: Path) -> dict:
    lang = src.meta.get("lang", "ko")
    fonts = _Fonts(lang)
    doc = Document()
    _drop_thumbnail(doc)
    _setup_styles(doc, fonts, lang)
    _setup_page(doc, src, fonts)

    numbers: dict[str, int] = {}
    for b in src.blocks:
        for kind, value in inline_tokens(b.text):
            if kind == "fn" and value not in numbers:
                numbers[value] = len(numbers) + 1

    page_break_next = False
    for b in src.blocks:
        if b.kind == "pagebreak":
            page_break_next = True
            continue
        if b.kind == "title":
            p = doc.add_paragraph()
            p.alignment = WD_ALIGN_PARAGRAPH.CENTER
            p.paragraph_format.space_after = Pt(14)
            _add_inline(p, b.text, fonts, numbers, bold=True, size=fonts.title)
        elif b.kind in ("heading", "part"):
            if lang == "en":
                p = doc.add_paragraph(style="Heading 1" if b.kind == "part" else "Heading 2")
                _add_inline(p, b.text, fonts, numbers)
            else:
                p = doc.add_paragraph()
                p.paragraph_format.space_before = Pt(10 if b.kind == "heading" else 16)
                p.paragraph_format.space_after = Pt(4)
                p.paragraph_format.keep_with_next = True
                size = fonts.part if b.kind == "part" else fonts.heading
                _add_inline(p, b.text, fonts, numbers, bold=True, size=size)
        elif b.kind == "para":
            p = doc.add_paragraph()
            indent = {0: 0, 1: 0, 2: 5, 3: 10}[b.level] if lang == "ko" else {0: 0, 1: 0, 2: 8, 3: 16}[b.level]
            if indent:
                p.paragraph_format.left_indent = Mm(indent)
            if lang == "en":
                p.alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
            _add_inline(p, b.text, fonts, numbers)
        elif b.kind in ("center", "right"):
            p = doc.add_paragraph()
            p.alignment = WD_ALIGN_PARAGRAPH.CENTER if b.kind == "center" else WD_ALIGN_PARAGRAPH.RIGHT
            _add_inline(p, b.text, fonts, numbers)
        elif b.kind == "parties":
            p = _parties_table(doc, b.rows, fonts)
        elif b.kind == "table":
            p = _grid_table(doc, b.rows, fonts, numbers)
        else:  # pragma: no cover
            raise ValueError(b.kind)
        if page_break_next and hasattr(p, "paragraph_format"):
            p.paragraph_format.page_break_before = True
            page_break_next = False

    _add_footnotes_part(doc, src, numbers, fonts)
    cp = doc.core_properties
    cp.title = src.meta.get("title", "")
    cp.author = src.meta.get("author", "")
    cp.subject = src.meta.get("subject", "")
    cp.last_modified_by = "jogak scripts/samples"
    cp.created = FIXED_TIME
    cp.modified = FIXED_TIME
    cp.revision = 1
    cp.language = "ko-KR" if lang == "ko" else "en-US"
    buf = io.BytesIO()
    doc.save(buf)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(_normalise_zip(buf.getvalue()))
    return {"footnotes": len(numbers)}


# ── styles and page ────────────────────────────────────────────────────────────────────────────
def _setup_styles(doc, fonts: _Fonts, lang: str) -> None:
    normal = doc.styles["Normal"]
    normal.font.size = Pt(fonts.body)
    _set_run_fonts(normal, fonts.latin, fonts.east)
    normal.paragraph_format.space_after = Pt(3)
    normal.paragraph_format.line_spacing = 1.35 if lang == "ko" else 1.15
    for name, size in (("Heading 1", fonts.part), ("Heading 2", fonts.heading)):
        st = doc.styles[name]
        st.font.size = Pt(size)
        st.font.bold = True
        st.font.italic = False
        st.font.color.rgb = RGBColor(0, 0, 0)
        _set_run_fonts(st, fonts.latin, fonts.east)
        st.paragraph_format.space_before = Pt(12 if name == "Heading 1" else 9)
        st.paragraph_format.space_after = Pt(4)
    fn_text = doc.styles.add_style("Footnote Text", WD_STYLE_TYPE.PARAGRAPH)
    fn_text.base_style = normal
    fn_text.font.size = Pt(8 if lang == "ko" else 9)
    fn_text.paragraph_format.space_after = Pt(0)
    fn_text.paragraph_format.line_spacing = 1.0
    fn_ref = doc.styles.add_style("Footnote Reference", WD_STYLE_TYPE.CHARACTER)
    fn_ref.font.superscript = True
    for st in (fn_text, fn_ref):
        st.element.set(qn("w:customStyle"), "0")  # built-in names, not custom styles
        st.unhide_when_used = True
        st.priority = 99


def _setup_page(doc, src: Source, fonts: _Fonts) -> None:
    sec = doc.sections[0]
    sec.page_width, sec.page_height = Mm(210), Mm(297)
    sec.left_margin = sec.right_margin = Mm(25)
    sec.top_margin, sec.bottom_margin = Mm(25), Mm(22)
    sec.header_distance, sec.footer_distance = Mm(10), Mm(9)
    header_text = src.meta.get("header")
    if header_text:
        hp = sec.header.paragraphs[0]
        hp.text = ""
        run = hp.add_run(header_text)
        run.font.size = Pt(8)
        if src.meta.get("header_from", "1") != "1":
            # first page without header, like the PDF
            sec.different_first_page_header_footer = True
            fp = sec.first_page_footer.paragraphs[0]
            _folio(fp)
    if src.meta.get("folio") == "yes":
        _folio(sec.footer.paragraphs[0])


def _folio(p) -> None:
    p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    p.add_run("- ")
    r = p.add_run()
    fld_begin = parse_xml(f'<w:fldChar xmlns:w="{W_NS}" w:fldCharType="begin"/>')
    r._r.append(fld_begin)
    r2 = p.add_run()
    instr = parse_xml(f'<w:instrText xmlns:w="{W_NS}" xml:space="preserve"> PAGE </w:instrText>')
    r2._r.append(instr)
    r3 = p.add_run()
    r3._r.append(parse_xml(f'<w:fldChar xmlns:w="{W_NS}" w:fldCharType="separate"/>'))
    p.add_run("1")
    r5 = p.add_run()
    r5._r.append(parse_xml(f'<w:fldChar xmlns:w="{W_NS}" w:fldCharType="end"/>'))
    p.add_run(" -")


def _drop_thumbnail(doc) -> None:
    pkg = doc.part.package
    for rid, rel in list(pkg.rels.items()):
        if rel.reltype.endswith("/thumbnail"):
            del pkg.rels[rid]


# ── body content ───────────────────────────────────────────────────────────────────────────────
def _add_inline(p, text: str, fonts: _Fonts, numbers: dict[str, int], *, bold: bool = False, size=None):
    for kind, value in inline_tokens(text):
        if kind == "fn":
            r = p.add_run()
            rpr = r._r.get_or_add_rPr()
            rstyle = etree.SubElement(rpr, qn("w:rStyle"))
            rstyle.set(qn("w:val"), "FootnoteReference")
            ref = etree.SubElement(r._r, qn("w:footnoteReference"))
            ref.set(qn("w:id"), str(numbers[value]))
            continue
        r = p.add_run(value)
        if bold or kind == "bold":
            r.bold = True
        if size:
            r.font.size = Pt(size)


def _parties_table(doc, rows, fonts: _Fonts):
    table = doc.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = doc.styles["Table Grid"]
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    widths = [Mm(24), Mm(68), Mm(68)]
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            cell = table.cell(i, j)
            cell.width = widths[j] if j < len(widths) else Mm(40)
            cell.text = ""
            run = cell.paragraphs[0].add_run(value)
            if i == 0 or j == 0:
                run.bold = True
            if i == 0:
                cell.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.CENTER
    doc.add_paragraph()  # spacing after the table, as typed documents usually have
    return table


def _grid_table(doc, rows, fonts: _Fonts, numbers):
    table = doc.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = doc.styles["Table Grid"]
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            cell = table.cell(i, j)
            cell.text = ""
            _add_inline(cell.paragraphs[0], value, fonts, numbers, bold=(i == 0))
    return table


# ── footnotes part ─────────────────────────────────────────────────────────────────────────────
def _add_footnotes_part(doc, src: Source, numbers: dict[str, int], fonts: _Fonts) -> None:
    if not numbers:
        return
    root = etree.Element(_w("footnotes"), nsmap={"w": W_NS})
    for fid, kind, child in (("-1", "separator", "separator"), ("0", "continuationSeparator", "continuationSeparator")):
        fn = etree.SubElement(root, _w("footnote"))
        fn.set(_w("type"), kind)
        fn.set(_w("id"), fid)
        p = etree.SubElement(fn, _w("p"))
        ppr = etree.SubElement(p, _w("pPr"))
        sp = etree.SubElement(ppr, _w("spacing"))
        sp.set(_w("after"), "0")
        sp.set(_w("line"), "240")
        sp.set(_w("lineRule"), "auto")
        r = etree.SubElement(p, _w("r"))
        etree.SubElement(r, _w(child))
    for key, n in sorted(numbers.items(), key=lambda kv: kv[1]):
        fn = etree.SubElement(root, _w("footnote"))
        fn.set(_w("id"), str(n))
        p = etree.SubElement(fn, _w("p"))
        ppr = etree.SubElement(p, _w("pPr"))
        etree.SubElement(ppr, _w("pStyle")).set(_w("val"), "FootnoteText")
        r = etree.SubElement(p, _w("r"))
        rpr = etree.SubElement(r, _w("rPr"))
        etree.SubElement(rpr, _w("rStyle")).set(_w("val"), "FootnoteReference")
        etree.SubElement(r, _w("footnoteRef"))
        r = etree.SubElement(p, _w("r"))
        t = etree.SubElement(r, _w("t"))
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        t.text = " " + src.footnotes[key]
    blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    part = Part(PackURI("/word/footnotes.xml"), CT_FOOTNOTES, blob, doc.part.package)
    doc.part.relate_to(part, RT.FOOTNOTES)

    settings = doc.settings.element
    fpr = etree.Element(_w("footnotePr"))
    for fid in ("-1", "0"):
        etree.SubElement(fpr, _w("footnote")).set(_w("id"), fid)
    compat = settings.find(_w("compat"))
    if compat is not None:
        compat.addprevious(fpr)
    else:
        settings.append(fpr)


def _normalise_zip(data: bytes) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=ZIP_TIME)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            dst.writestr(zi, src.read(info.filename))
    return out.getvalue()
