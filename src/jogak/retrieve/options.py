"""What a search is asked to do (``SearchOptions``, read from the ``retrieve`` config section) and what
it returns (``SearchResult``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jogak.authority import retrieval_priors
from jogak.config import load_config
from jogak.filters import Filter
from jogak.index.heads import ARTICLE_HEADS_DEFAULT
from jogak.model import Hit


@dataclass
class SearchOptions:
    n_candidates: int = 50  # per retriever
    dense: bool = True
    bm25: bool = True
    weights: dict[str, float] = field(default_factory=lambda: {"dense": 1.0, "bm25": 1.0, "route": 1.0,
                                                                "leaf_dense": 1.0, "leaf_bm25": 1.0,
                                                                "feedback": 1.0, "article_dense": 0.5})
    rrf_k: int = 60
    query_filters: bool = True
    # a document the question names ("미소숲치과에서 …") is a filter (True) or only preferred (False: document
    # routing lifts it by document_boost, and another document that states the same rule can still be found)
    title_filter: bool = True
    clause_lookup: bool = True
    xref: bool = True
    xref_depth: int = 2
    xref_per_target: int = 2  # chunks taken from one target node
    xref_max: int = 4  # target chunks added per search
    routing: bool = True
    routing_rules: str | None = None  # YAML path; default jogak/retrieve/routing.yaml
    # Everyday words in the question also search for the documents' wording (the answer stage's lexicon:
    # "월급" → 임금, "잘리다" → 해고, "ship" → deliver), in BM25 only; dense retrieval sees the question.
    lexicon: bool = True
    # ... and when the question's word never occurs in the collection ("자르다" in a statute), the dense
    # query carries the document wording too, in parentheses: "… 자르려면 … (해고)".
    lexicon_dense: bool = True
    expand: str | None = None  # None | "neighbours" | "parent"
    # Pseudo-relevance feedback (retrieve/feedback.py): one more BM25 list whose query adds up to
    # feedback_terms distinctive words of the first pass's top feedback_docs clauses. Opt-in: measured in
    # session 5 (2 × 5), MRR +0.01–0.02 on tune, r1, r2 and Haru Market and recall@5 +0.05–0.07 on tune and
    # r1, but recall@5 −0.06 on the statutes set, whose answer checkpoints fall below their floor (README
    # "Measured quality"). 2 × 5 is the better setting when it is switched on.
    feedback: bool = False
    feedback_docs: int = 2
    feedback_terms: int = 5
    # Multi-granularity matching (retrieve/leaves.py): every leaf (항/호/목) is matched on its own, dense
    # and lexical, and ranks its chunk — when the collection indexed its leaves (``index.leaves: true`` at
    # ingest; off by default: measured, it lifts statutes and contracts but not everyday questions over a
    # mixed collection, see README "Measured quality"); leaf_granularity "all" | "paragraph" (항 and
    # clause text) | "item" (호/목) — for measuring which granularities help.
    leaves: bool = True
    leaf_granularity: str = "all"
    # "lists": the leaf rankings are two more lists in fusion; "max": a chunk's dense and BM25 scores are
    # the better of its own and its best leaf's (the same number of votes as without leaves)
    leaf_mode: str = "lists"
    # Article heads (retrieve/articles.py): each clause also ranked by one vector of its document title and
    # opening text (its heading and first sentences) — one more dense list in fusion, at weight 0.5; the heads
    # are embedded at ingest (jogak.index.heads). On by default since session 26: on 15 used sets (session 25)
    # recall@1 +0.023, MRR +0.015, recall@5 +0.006, recall@10 −0.006; on the untouched r37 / a37 / r38 / a38
    # MRR +0.004 / −0.020 / +0.017 / +0.018, recall@5 = / +0.017 / +0.036 / =; answers a31–a37 right
    # 195 → 197, the untouched a38 27 = 27. Costs about half again the embedding at ingest.
    article_dense: bool = ARTICLE_HEADS_DEFAULT
    # Hits are clauses: the chunks of one clause (the chunker's ``clause`` key) collapse into one hit, the
    # best chunk shown, the others listed in ``Hit.also`` (retrieve/clauses.py). A "clause" of more than
    # collapse_max_chunks chunks is a section of clauses (a contract's "Section 8" holding 8.1–8.12): its
    # chunks collapse by the sub-clause they sit in instead (0: no limit).
    collapse: bool = True
    collapse_max_chunks: int = 8
    # Document routing in mixed collections (retrieve/documents.py): the documents a question names or
    # implies are lifted by document_boost; without one, each further clause of a document already shown
    # is discounted by document_spread, so several fitting documents take turns.
    documents: bool = True
    document_boost: float = 1.3
    document_spread: float = 0.0
    # A question about public regulation or a public body's acts (a fine, a permit, "구청이 …": ``grammar.laws.
    # asks_about_regulation``) that names no document: in a collection of laws and other documents (terms,
    # contracts), the other documents' candidates are multiplied by regulation_prior — a company's terms do
    # not bind a 구청 or set a fine (1.0: off). Session 36 (22 used sets): MRR +0.004, clause-P@1 +0.005
    regulation_prior: float = 0.9
    # A question asking a state sanction ("어떤 처벌을 받아요?", "과태료가 얼마예요?": ``grammar.laws.asks_a_sanction``):
    # the laws' first sanction_laws_first clauses go before the other documents' in the final order — a company's
    # terms impose no 벌금. On 247 such questions of the used sets every gold set holds a law's clause (in 25, a
    # terms clause besides); the learned reranker's soft law cue left a terms clause first in some (r63-36). 0: off.
    sanction_laws_first: int = 3
    # the law clause behind a company's rule goes to this place when the hits before it hold no law clause and
    # another document's clause leads (retrieve/companion.py; 0: off). Session 46, 9 used mixed sets: recall@5
    # +0.009 a set (7 up, 1 down), MRR ±0.002; at 3: +0.009 but 3 sets down.
    companion_at: int = 5
    # an Act clause among the first this many hits that leaves details to its decree or rule ("대통령령으로 정한다")
    # is followed by the candidate clause of that decree or rule which names it (retrieve/delegation.py; 0: off)
    delegation_top: int = 3
    # a question asking what the sanction is: the penalty article citing one of the first this many hits (a duty
    # clause of a statute) as breached goes right before it (retrieve/sanction.py; 0: off)
    sanction_top: int = 3
    # a question asking who cannot get or be something: the 결격사유 article of one of the first this many hits' laws
    # sharing most of the question's words goes right before them (retrieve/disqualification.py; 0: off)
    disqualification_top: int = 3
    # The rerank stage (retrieve/rerank.py): None, a backend name ("auto", "learned", "leaf", "cross-encoder",
    # "http") or a mapping {backend, model, url, top, weight, timeout, api_key_env}. "auto": the learned
    # reranker where its weights fit the store's embedding model and the question's language, nothing
    # elsewhere. The default since session 14: MRR up on 12 of 14 untouched sets (r13–r19, a13–a19), and with
    # the answer confidence re-fitted on its ranking, 17 more right answers on a13–a20 (README "Session 14").
    rerank: Any = "auto"
    # Authority prior (seed 004: the binding clause outranks text that restates or explains it): the fused
    # score of a chunk is multiplied by the weight of its node kind / block type. An FAQ answer or a
    # footnote that says the same as an article ranks just below it; it still wins when it alone matches.
    # Addenda (부칙) say when and how amendments apply; a statute's long amendment history must not crowd
    # out the articles, so they rank lower unless the question is about application or transition (the
    # "transition" routing rule prefers them then, and this factor is not applied).
    # (jogak.authority's retrieval column: faq, footnote, addenda, and "purpose" / "definition", a purpose
    # article ("제1조 (목적)") or a definitions article ("제2조 (정의)"), which share every question's vocabulary
    # and answer almost none — unless the question asks about a purpose / what a word means —, and "amending",
    # an addenda article amending other laws ("제6조 (다른 법률의 개정)"), and "penalty", a penalty provision whose
    # lists of breached articles meet every duty's question)
    authority: dict[str, float] = field(default_factory=retrieval_priors)

    @classmethod
    def from_config(cls, section: dict[str, Any] | None = None, **overrides: Any) -> SearchOptions:
        if section is None:
            section = load_config().section("retrieve")
        o = cls()
        for k, v in {**(section or {}), **overrides}.items():
            if k in ("weights", "authority") and isinstance(v, dict):
                setattr(o, k, {**getattr(o, k), **{str(a): float(b) for a, b in v.items()}})
            elif hasattr(o, k):
                setattr(o, k, v)
        return o

    @classmethod
    def baseline(cls) -> SearchOptions:
        """Seed 001's pipeline: dense only, nothing structural."""
        return cls(bm25=False, query_filters=False, clause_lookup=False, xref=False, routing=False, authority={},
                   lexicon=False, leaves=False, collapse=False, documents=False, rerank=None, feedback=False,
                   article_dense=False, delegation_top=0, sanction_top=0, disqualification_top=0,
                   companion_at=0)

    @classmethod
    def plain_hybrid(cls) -> SearchOptions:
        """The plain hybrid pipeline (the bar to beat): dense + BM25 fused by RRF, nothing structural, no
        lexicon, no question filters."""
        return cls(query_filters=False, clause_lookup=False, xref=False, routing=False, authority={},
                   lexicon=False, lexicon_dense=False, leaves=False, collapse=False, documents=False, rerank=None,
                   feedback=False, article_dense=False, delegation_top=0, sanction_top=0, disqualification_top=0,
                   companion_at=0)


@dataclass
class SearchResult:
    query: str
    filters: list[Filter]
    hits: list[Hit]
    warnings: list[str] = field(default_factory=list)
    retrieval_query: str = ""  # the text the retrievers saw (question minus filter phrases)
    routed: list[str] = field(default_factory=list)  # block types preferred by a routing rule
    as_of: str | None = None  # the day whose versions answered (None: no versioned documents, or compare)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "query": self.query,
            "filters": [f.to_dict() for f in self.filters],
            "hits": [h.to_dict() for h in self.hits],
        }
        if self.warnings:
            d["warnings"] = self.warnings
        if self.as_of:
            d["as_of"] = self.as_of
        return d
