"""One authority table (FAQ / footnote / appendix / addenda priors) for retrieve and answer."""

from __future__ import annotations

from jogak.answer.generators.weights import ExtractiveWeights
from jogak.authority import AUTHORITY, answer_priors, retrieval_priors
from jogak.retrieve import SearchOptions


def test_every_prior_keeps_the_binding_text_first() -> None:
    for kind, p in AUTHORITY.items():
        assert 0 < p.retrieval <= 1.0 and 0 < p.answer <= 1.0, kind
        assert p.retrieval < 1.0 or p.answer < 1.0, f"{kind}: a prior that changes nothing"


def test_retrieve_and_answer_read_the_table() -> None:
    assert SearchOptions().authority == retrieval_priors() == {"faq": 0.975, "footnote": 0.95, "addenda": 0.9,
                                                                    "purpose": 0.8, "definition": 0.9,
                                                                    "amending": 0.8, "penalty": 0.9}
    w = ExtractiveWeights()
    assert w.authority == answer_priors()
    assert (w.tier_weight("primary"), w.tier_weight("supplementary"), w.tier_weight("background")) == (
        1.0, AUTHORITY["appendix"].answer, AUTHORITY["footnote"].answer)
    assert w.prior("faq") == AUTHORITY["faq"].answer and w.prior("article") == 1.0
