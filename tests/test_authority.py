"""One authority table (FAQ / footnote / appendix / addenda priors) for retrieve and answer."""

from __future__ import annotations

from jogak.answer.context import TIER_WEIGHT
from jogak.answer.generators import extractive
from jogak.authority import AUTHORITY, answer_priors, retrieval_priors
from jogak.retrieve import SearchOptions


def test_every_prior_keeps_the_binding_text_first() -> None:
    for kind, p in AUTHORITY.items():
        assert 0 < p.retrieval <= 1.0 and 0 < p.answer <= 1.0, kind
        assert p.retrieval < 1.0 or p.answer < 1.0, f"{kind}: a prior that changes nothing"


def test_retrieve_and_answer_read_the_table() -> None:
    assert SearchOptions().authority == retrieval_priors() == {"faq": 0.975, "footnote": 0.95, "addenda": 0.9}
    assert TIER_WEIGHT["supplementary"] == answer_priors()["appendix"]
    assert TIER_WEIGHT["background"] == answer_priors()["footnote"]
    assert AUTHORITY["faq"].answer == extractive.FAQ_WEIGHT
