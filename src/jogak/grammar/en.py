"""English structure grammar as data (contracts: ARTICLE / Section 4.2 / (a) / (i), Schedules, Exhibits)."""

from __future__ import annotations

from jogak.grammar.base import Grammar
from jogak.grammar.numbering import NUMBER_WORDS
from jogak.grammar.scheme import BlockWord, Scheme

SCHEMES: tuple[Scheme, ...] = (
    Scheme("en_part", "chapter", r"(?i:PART)\s+(?P<n>\d+|[IVXLC]+)\b", ordinal="introman", rank=1, path="Part {n}",
           label="Part {raw}", titled=True, anchored=True),
    Scheme("en_chapter", "chapter", r"(?i:CHAPTER)\s+(?P<n>\d+|[IVXLC]+)\b", ordinal="introman", rank=2,
           path="Chapter {n}", label="Chapter {raw}", titled=True, anchored=True),
    Scheme("en_article", "article", rf"(?i:ARTICLE)\s+(?P<n>\d+|[IVXLC]+|(?i:{NUMBER_WORDS}))\b\.?",
           ordinal="introman", rank=10, path="Article {n}", label="Article {numeral}", titled=True, anchored=True),
    # "Section 4" / "SECTION 4." / "§ 4" as the top level (no ARTICLE headings in the document)
    Scheme("en_section_word", "article", r"(?:(?i:SECTION)|§)\s*(?P<n>\d+)(?![.\d]*\d)\.?", rank=11,
           path="Section {n}", label="Section {n}", titled=True, anchored=True),
    # "Clause 5" / "CLAUSE 5 – CONFIDENTIALITY" (English/UK drafting) as the top level
    Scheme("en_clause_word", "article", r"(?i:CLAUSE)\s*(?P<n>\d+)(?![.\d]*\d)\.?", rank=11,
           path="Clause {n}", label="Clause {n}", titled=True, anchored=True),
    # "Section 4.2" / "§ 4.2" / "4.2" / "4.2." — nests under Article 4 (or "4.") by its numeric prefix
    Scheme("en_dotted", "paragraph", r"(?:(?:(?i:SECTION|CLAUSE)|§)\s*)?(?P<n>\d+(?:\.\d+)+)\.?(?![\d])", rank=20,
           path="{n}", label="{raw}", titled=True, dotted=True),
    # "1." / "1)" at the top of the body with no ARTICLE headings: numbered sections
    Scheme("en_decimal_dot", "article", r"(?P<n>\d{1,3})\.(?![\d])", rank=12, path="{n}", titled=True,
           anchored=True),
    Scheme("en_alpha_paren", "item", r"\((?P<n>[a-z])\)", ordinal="letter", rank=30, path="({raw})"),
    Scheme("en_roman_paren", "subitem", r"\((?P<n>[ivxlc]+)\)", ordinal="roman", rank=40, path="({raw})"),
    Scheme("en_upper_paren", "subitem", r"\((?P<n>[A-Z])\)", ordinal="letter", rank=50, path="({raw})"),
    Scheme("en_decimal_paren", "subitem", r"\((?P<n>\d{1,3})\)", rank=60, path="({n})"),
    Scheme("en_alpha_dot", "item", r"(?P<n>[a-z])[.)](?=\s)", ordinal="letter", rank=35, path="({raw})"),
)

# Added only on evidence (the parser's scheme choice): "1 Definitions and interpretation" — a bare number and
# a title alone on the line, with clauses "1.1", "1.2" after it (English/UK drafting without a dot).
SECTION_SCHEMES: tuple[Scheme, ...] = (
    Scheme("en_decimal_bare", "article", r"(?P<n>\d{1,3})(?=[ \t]+[A-Z])", rank=12, path="Section {n}", titled=True,
           anchored=True, whole_line_title=True),
)

APPENDIX_WORDS = ("Schedule", "Exhibit", "Annex", "Appendix", "Attachment")
_APPW = rf"(?P<app>{'|'.join(APPENDIX_WORDS)})"
REF_PATTERNS: tuple[tuple[str, str], ...] = (
    ("other_law", r"(?i:Article|Section|§)\s*\d+(?:\.\d+)*(?:\([a-z0-9]+\))*\s+of\s+the\s+(?!Agreement\b|Contract\b)"
                  r"(?:[A-Z][\w.'’-]*\s+){0,6}(?:Code|Act|Law|Regulations?|Convention|Rules)\b"),
    ("inner_of_appendix", r"(?i:paragraph|section|clause|item)\s+(?P<sec>\d+(?:\.\d+)*)\s+(?:of|to|in)\s+(?:the\s+)?"
                          + _APPW + r"\s+(?P<app_id>[A-Z0-9]+(?:-\d+)?)\b"),
    ("appendix", _APPW + r"\s+(?P<app_id>[A-Z0-9]+(?:-\d+)?)\b(?:,?\s*(?i:Section|paragraph|clause)\s+"
                 r"(?P<sec>\d+(?:\.\d+)*))?"),
    ("article", rf"(?i:Article)\s+(?P<art>\d+|[IVXLC]+|(?i:{NUMBER_WORDS}))\b"),
    ("section", r"(?:(?i:Sections?|Clauses?)|§§?)\s*(?P<sec>\d+(?:\.\d+)*)(?:\s*(?:and|or|through|to|-)\s*"
                r"(?P<sec2>\d+(?:\.\d+)*))?(?P<of_agreement>\s+of\s+(?:this|the)\s+(?:Agreement|Contract))?"
                r"(?P<of_block>\s+(?:of|to|in)\s+this\s+(?i:Schedule|Exhibit|Annex|Appendix|Attachment))?"),
    ("bare_para", r"(?i:paragraph|clause)\s+(?P<sec>\d+(?:\.\d+)*)"),
)

EN = Grammar(
    lang="en",
    schemes=SCHEMES,
    section_schemes=SECTION_SCHEMES,
    section_title_max=80,
    section_title_not_end=(".", ":", ",", ";"),
    block_words=(
        BlockWord("appendix", (*APPENDIX_WORDS, "Addendum", "Rider"), needs_id=True, block_type="appendix"),
        BlockWord("faq", ("Frequently Asked Questions", "FAQ", "FAQs"), block_type="body"),
    ),
    continuations=(
        "of", "hereof", "herein", "hereunder", "thereof", "above", "below", "and", "or", "to", "in", "as", "shall",
        "is", "are", "will", "may", "has", "have", "was", "were", "through", "that", "which", "by", "for", "with",
        "applies", "apply", "provided", "herewith", ",", ")", ";",
    ),
    party_cues=("by and between", "between", "party", "parties", "hereinafter", "(the \""),
    party_patterns=(
        r"(?i)\bby\s+and\s+(?:between|among)\b",
        r"(?i)^\s*(?:BETWEEN|AMONG)\s*:?\s*$",
        r"(?i)\((?:the\s+)?[\"“][A-Z][\w\- ]*[\"”]\)",
        r"(?i)^\s*(?:AND|and)\s*:?\s*$",
    ),
    # Headings run together on one line ("... affected.   3.2 Licence. ...", "as follows: (a) ...; (b) ...").
    inline_split=(r"(?:(?<=[.;:])\s+|\s{3,})(?=(?:(?:Section|SECTION|ARTICLE|Article)\s+\d|\d+(?:\.\d+)+\.?\s+[A-Z\"“]"
                  r"|\((?:[a-z]|[ivx]{1,4}|[A-Z])\)\s))"),
    toc_words=("TABLE OF CONTENTS", "Table of Contents", "INDEX"),
    faq_question=r"^(?:Q\s*\d*\s*[.:)]|Q\d+\b|Question\s*\d*\s*[.:])",
    faq_answer=r"^(?:A\s*\d*\s*[.:)]|Answer\s*\d*\s*[.:])",
    # The execution statement that opens the signature block after the last clause.
    signature_start=(
        r"^(?i:IN\s+WITNESS\s+WHERE(?:OF|FORE))\b",
        r"^(?i:This\s+(?:Agreement|Contract|Deed)\s+has\s+been\s+(?:entered\s+into|executed|signed))\b",
        r"^(?:EXECUTED|Executed|SIGNED|Signed)\s+(?:as\s+a\s+deed\s+)?(?:by|for\s+and\s+on\s+behalf\s+of)\b",
        r"^(?i:AGREED\s+(?:AND\s+ACCEPTED|TO\s+AND\s+ACCEPTED))\b",
    ),
    # A clause kept only for its number: "[Reserved]", "Intentionally Omitted", "Deleted."
    deleted=r"(?i:\[?\s*(?:reserved|intentionally\s+(?:omitted|left\s+blank|deleted)|deleted|omitted)\s*\]?\s*\.?)",
    # Where the recitals start in the front matter (the parties statement comes before them)
    recitals_start=(
        r"^(?:RECITALS?|Recitals?|BACKGROUND|Background|PREAMBLE|Preamble|W\s*I\s*T\s*N\s*E\s*S\s*S\s*E\s*T\s*H)"
        r"\s*[:.\-–—]?\s*$",
        r"^(?:WHEREAS|Whereas)\b",
    ),
    # The top level is whichever heading style the document really uses; these lines are counted.
    heading_probes=(
        ("en_article", rf"(?i:ARTICLE)\s+(?:\d+|[IVXLC]+|(?i:{NUMBER_WORDS}))\b"),
        ("en_section_word", r"(?i:SECTION)\s+\d+\b(?!\.\d)"),
        ("en_clause_word", r"(?i:CLAUSE)\s+\d+\b(?!\.\d)"),
        ("en_decimal_dot", r"\d{1,3}\.\s+\S"),
    ),
    labels={
        "body": "",
        "parties": "Parties",
        "signatures": "Signatures",
        "recitals": "Recitals",
        "footnotes": "Footnote",
        "preamble": "Preamble",
        "faq": "FAQ",
        "table": "Table {n}",
        "addenda": "Addenda",
    },
    ref_patterns=REF_PATTERNS,
    pointer_after=r"^\s*(?:attached\s+hereto|hereto|below|above)?\s*[.;]?\s*$",
    pointer_before=r"(?i)(?:as\s+(?:set\s+forth|provided|specified|described|defined)\s+in|in\s+accordance\s+with|see"
                   r"|pursuant\s+to|set\s+out\s+in|calculated\s+(?:in\s+accordance\s+with|under))\s*(?:the\s+)?$",
)
