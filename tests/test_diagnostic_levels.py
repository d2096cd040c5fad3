"""Every diagnostic level a golden holds is stated by the catalogue: a clause the case cites, or a
decision clause one of them relies on (its ``source``), names the code with its level -- "the
warning CODE", "the error CODE", "the info diagnostic CODE", "CODE (warn)", "a CODE warning",
"CODE is an error", or "level `warn`, code `CODE`". A level the goldens record but no clause states would judge an
implementation on a golden alone (PROF-DIAG-CODES takes the published levels; the catalogue must
say which they are).

Seen failing before the levels were written into the clauses: 26 codes of the profiles and envelope
areas (config-subagents among them) had their level in the goldens only, and seven cases held a
code none of their clauses names (they now cite PROF-AUTO-NONE, PROF-CONFIG-UNKNOWN or
PROF-INHERIT-MISSING)."""

from __future__ import annotations

import re

from conformance.corpus.cases import load_suite
from conformance.corpus.catalogue import _cited_set, load_catalogue
from conformance.judge import golden

WORDS = {"warn": "(?:warning|warn)", "error": "error", "info": "info"}


def _diagnostics(value):
    if isinstance(value, dict):
        if isinstance(value.get("code"), str) and value.get("level") in WORDS:
            yield value["code"], value["level"]
        for item in value.values():
            yield from _diagnostics(item)
    elif isinstance(value, list):
        for item in value:
            yield from _diagnostics(item)


def states(statement: str, code: str, level: str) -> bool:
    """Whether ``statement`` names ``code`` with ``level`` in one of the forms above."""
    word, name = WORDS[level], re.escape(code)
    return bool(re.search(rf"\b{word}s?`?,? (?:code )?`?{name}\b", statement)
                or re.search(rf"\b{name}`? \({word}\)", statement)
                or re.search(rf"\b{name}`? is an? {word}\b", statement)
                or re.search(rf"\b{word} diagnostic `?{name}\b", statement)
                or re.search(rf"\b{name}`? {word}\b", statement)
                or re.search(rf"level `?{word}`?, code `?{name}`", statement))


def test_every_level_in_a_golden_is_stated_by_a_clause_of_its_case():
    cat = load_catalogue()
    unstated: dict[str, set[str]] = {}
    for case in load_suite(areas=["profiles", "envelope"]).cases:
        if case.error_code is not None:
            continue
        stored = golden.read(golden.golden_path(golden.GOLDEN_DIR, case.area, case.id))
        read = set(case.clauses) | {d for cid in case.clauses if cid in cat.clauses
                                    for d in _cited_set(cat.clauses[cid].source) if d in cat.clauses}
        statements = [cat.clauses[cid].statement for cid in read if cid in cat.clauses]
        for code, level in set(_diagnostics(stored["output"])):
            if not any(states(s, code, level) for s in statements):
                unstated.setdefault(f"{code} ({level})", set()).add(case.id)
    assert sorted(unstated) == [], {k: sorted(v)[:3] for k, v in unstated.items()}
