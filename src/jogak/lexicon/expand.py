"""Term expansion: a question's content terms with the document wording the lexicon gives for them.

Used by the answerer (a question lemma also matches its variants, at a discount) and by retrieval (the
BM25 query also searches for the variants; see ``jogak.retrieve.wording``).
"""

from __future__ import annotations

from jogak.lexicon.tables import lexicon
from jogak.lexicon.terms import content_terms


def expand_terms(question: str, q_terms: list[str]) -> tuple[list[str], dict[str, list[tuple[str, ...]]]]:
    """Question lemmas with their document-wording variants from the lexicon (as lemma tuples).

    Keys are matched as lemmas ("쌓이다") and as lemma sequences, since Kiwi may split a customer
    compound one way in isolation and another in a sentence ("택배비" / "택배"+"비"); a key matched as
    a sequence replaces its parts with one term, so "비" does not count as a word of its own."""
    table = lexicon()
    terms = list(q_terms)
    out: dict[str, list[tuple[str, ...]]] = {t: [(t,)] for t in terms}
    for key, values in table.items():
        kt = content_terms(key) or (key,)
        if key in out:
            target = key
        elif len(kt) > 1 and all(x in out for x in kt):
            pos = terms.index(kt[0])
            for x in kt:
                terms.remove(x)
                out.pop(x, None)
            terms.insert(pos, key)
            out[key] = [kt]
            target = key
        elif key in question.replace(" ", ""):
            # "택배비" in the text but split by Kiwi into "택배" + "비": merge the parts back.
            parts = concat_parts(terms, key)
            if not parts:
                # A phrase Kiwi leaves no content lemma for ("언제부터"): it becomes a term of its own.
                if content_terms(key) or key in out:
                    continue
                terms.append(key)
                out[key] = [(key,)]
                for v in values:
                    vt = content_terms(v) or (v,)
                    if vt not in out[key]:
                        out[key].append(vt)
                continue
            pos = terms.index(parts[0])
            for x in parts:
                terms.remove(x)
                out.pop(x, None)
            terms.insert(pos, key)
            out[key] = [tuple(parts)]
            target = key
        else:
            continue
        for v in values:
            vt = content_terms(v) or (v,)
            if vt not in out[target]:
                out[target].append(vt)
    return terms, out


def concat_parts(terms: list[str], key: str) -> list[str] | None:
    """Consecutive terms whose concatenation is ``key`` (["택배", "비"] for "택배비")."""
    for i in range(len(terms)):
        acc = ""
        for j in range(i, len(terms)):
            acc += terms[j]
            if acc == key and j > i:
                return terms[i : j + 1]
            if not key.startswith(acc):
                break
    return None
