"""DocInfo: the shapes paragraphs refer to by id — character shapes (bold, size), paragraph shapes
(문단 머리: outline / number / bullet and its level, left margin), numbering definitions and style names
(Hancom HWP 5.0 spec §4.2). Each list is indexed in record order; numbering and bullet ids are 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jogak.load.hangul import FORMAT_NAMES, Level, NumberingDef
from jogak.load.hwp import records as R

HEAD_NONE, HEAD_OUTLINE, HEAD_NUMBER, HEAD_BULLET = 0, 1, 2, 3


@dataclass(slots=True)
class CharShape:
    size: float | None  # points
    bold: bool


@dataclass(slots=True)
class ParaShape:
    head: int  # HEAD_*
    level: int  # 0-based 문단 수준
    num_id: int  # numbering or bullet id (1-based; 0 = none)
    left: float  # left margin in points


@dataclass
class DocInfo:
    char_shapes: list[CharShape] = field(default_factory=list)
    para_shapes: list[ParaShape] = field(default_factory=list)
    numberings: dict[str, NumberingDef] = field(default_factory=dict)
    styles: list[str] = field(default_factory=list)

    def char(self, i: int) -> CharShape:
        return self.char_shapes[i] if 0 <= i < len(self.char_shapes) else CharShape(None, False)

    def para(self, i: int) -> ParaShape:
        return self.para_shapes[i] if 0 <= i < len(self.para_shapes) else ParaShape(HEAD_NONE, 0, 0, 0.0)

    def style(self, i: int) -> str | None:
        return self.styles[i] if 0 <= i < len(self.styles) else None


def parse_docinfo(data: bytes, version: tuple[int, int, int, int]) -> DocInfo:
    info = DocInfo()
    for r in R.read_records(data):
        if r.tag == R.CHAR_SHAPE:
            info.char_shapes.append(_char_shape(r.data))
        elif r.tag == R.PARA_SHAPE:
            info.para_shapes.append(_para_shape(r.data))
        elif r.tag == R.NUMBERING:
            info.numberings[str(len(info.numberings) + 1)] = _numbering(r.data, version)
        elif r.tag == R.STYLE:
            name, _ = R.wstr(r.data, 0)
            info.styles.append(name)
    return info


def _char_shape(b: bytes) -> CharShape:
    # 7 face ids (WORD), 7 ratios, 7 spacings, 7 relative sizes, 7 offsets (BYTE each) → base size at 42
    size = R.i32(b, 42)
    props = R.u32(b, 46)
    return CharShape(size=size / 100 if size > 0 else None, bold=bool(props & 0x2))


def _para_shape(b: bytes) -> ParaShape:
    props = R.u32(b, 0)
    left = R.i32(b, 4)
    # the margins are stored in half HWPUNITs (1 pt = 100 HWPUNIT); HWPX writes the same value
    return ParaShape(head=(props >> 23) & 0x3, level=(props >> 25) & 0x7, num_id=R.u16(b, 30),
                     left=left / 200)


def _numbering(b: bytes, version: tuple[int, int, int, int]) -> NumberingDef:
    levels: dict[int, Level] = {}
    pos = 0
    fmts: list[tuple[int, str]] = []
    for _lv in range(7):
        props = R.u32(b, pos)
        pos += 12  # props, width adjust, distance, char shape id
        template, pos = R.wstr(b, pos)
        code = (props >> 5) & 0xF
        fmts.append((code, template))
    start = R.u16(b, pos, 1)
    pos += 2
    starts = [start] * 7
    if version >= (5, 0, 2, 5) and pos + 28 <= len(b):
        starts = [R.u32(b, pos + 4 * k) for k in range(7)]
    for k, (code, template) in enumerate(fmts):
        fmt = FORMAT_NAMES[code] if code < len(FORMAT_NAMES) else "DIGIT"
        levels[k + 1] = Level(fmt=fmt, template=template, start=max(starts[k], 1))
    return NumberingDef(levels=levels)
