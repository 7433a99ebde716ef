"""Hostile inputs for the load script and the server tests (generated, never committed as files).

* ``tiny_chars_pdf(n)``: a PDF well under 1 KB whose one page shows ``n`` tiny glyphs, each more than
  pdfplumber's dedupe tolerance from the next, so ``dedupe_chars`` (``sorted(…, key=chars.index)``) is
  quadratic in ``n``: 20,000 glyphs take about half a minute, 80,000 many minutes.
* ``big_markdown(n_bytes)``: a Korean rule book of distinct clauses (nothing in any embedding cache), for
  "ingest 1 MB while others search".
"""

from __future__ import annotations

import random
import uuid
import zlib

WORDS = ["배송", "환불", "계약", "검수", "대금", "포인트", "등급", "보관", "파기", "통지", "해지", "손해", "배상", "책임",
         "기간", "승인", "회원", "상품", "교환", "물류", "창고", "정산", "수수료", "할인", "쿠폰", "적립", "소멸"]


def tiny_chars_pdf(n_chars: int = 80_000) -> bytes:
    """One page of ``n_chars`` 2-pt glyphs in rows of 250 (the content stream deflates to ~100 bytes)."""
    per_row = 250
    row = "(" + "a" * per_row + ") Tj 0 -2 Td\n"
    content = ("BT /F1 2 Tf 5 830 Td\n" + row * max(1, n_chars // per_row) + "ET").encode()
    stream = zlib.compress(content, 9)
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
            b"/Contents 5 0 R >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def big_markdown(n_bytes: int = 1_000_000, seed: int = 7) -> str:
    """About ``n_bytes`` of UTF-8 Markdown: articles with three paragraphs each, all text distinct."""
    rnd = random.Random(seed)
    tag = uuid.uuid4().hex[:8]
    out = ["# 대량 시험 규정", ""]
    size = 0
    i = 0
    while size < n_bytes:
        i += 1
        block = [f"제{i}조 (시험 조항 {i})"]
        for p in "①②③":
            words = " ".join(rnd.choice(WORDS) for _ in range(14))
            block.append(f"{p} 고유표지{tag}{i} {words}에 관하여 회사는 {rnd.randint(1, 90)}일 이내에 처리한다.")
        block.append("")
        size += len("\n".join(block).encode("utf-8")) + 1
        out.extend(block)
    return "\n".join(out)
