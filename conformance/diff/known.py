"""Known divergences: a disagreement of ``diff`` that an expectations file already records (its cases
of status ``fail``). A generated example knows no clause, so a disagreement is matched by *where*
the two answers differ (:func:`signature`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from conformance.judge import golden
from conformance.corpus.trees import tree_data

Signature = frozenset
"""The places two views differ at (:func:`signature`): a frozenset of strings."""


@dataclass
class KnownCase:
    """An expected-failing case on which the two adapters disagree: its ``id``, its ``clauses``,
    the expectation's ``reason`` and where the answers differ (``places``)."""

    id: str
    clauses: list[str]
    reason: str
    places: Signature


@dataclass
class KnownDivergences:
    """The recorded divergences by operation (built by :func:`recorded`)."""

    by_op: dict[str, list[KnownCase]] = field(default_factory=dict)

    def explain(self, op: str, places: Signature) -> list[KnownCase]:
        """The cases of ``op`` that differ at the places ``places`` holds, when together they
        cover every one of them; ``[]`` when some place is new (the disagreement is not known: a
        new rule reached, or a new way of diverging on a recorded one). A known disagreement is
        reported with those cases and their clauses instead of failing the run."""
        cases = [c for c in self.by_op.get(op, []) if c.places & places]
        covered = frozenset().union(*(c.places for c in cases)) if cases else frozenset()
        return cases if places and places <= covered else []


def _places(a: Any, b: Any, path: str, out: set[str]) -> None:
    if a is _MISSING or b is _MISSING:
        out.add(path)
    elif isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            _places(a.get(key, _MISSING), b.get(key, _MISSING), f"{path}.{key}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) == len(b):
            for x, y in zip(a, b):
                _places(x, y, f"{path}[*]", out)
            return
        out.add(f"{path}.length")
        _aligned(a, b, path, out)
    elif not golden.same(a, b):
        out.add(path)


_MISSING = object()


def _aligned(a: list, b: list, path: str, out: set[str]) -> None:
    """The places of two lists of different lengths, their equal items matched up first: an item
    only the first has is ``PATH[-]``, one only the second has ``PATH[+]``, and items that sit
    between the same matched ones, as many on each side, are compared as at ``PATH[*]``. So one
    item more or less is one place, not a difference at every item after it."""
    from difflib import SequenceMatcher

    texts = ([golden.encoded(x) for x in a], [golden.encoded(y) for y in b])
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, *texts, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i2 - i1 == j2 - j1:
            for x, y in zip(a[i1:i2], b[j1:j2]):
                _places(x, y, f"{path}[*]", out)
            continue
        if i2 > i1:
            out.add(f"{path}[-]")
        if j2 > j1:
            out.add(f"{path}[+]")


def signature(views: tuple[Any, Any]) -> Signature:
    """Where two answer views (``diff.answer_view``) differ: ``{"answer: KIND [CODE] / KIND
    [CODE]"}`` (a result's output left out) when they are not both results, else the output paths
    that differ (``$.a.b[*].c``). A list of another length adds ``PATH.length``, and its items are
    matched up first: ``PATH[-]`` for items only the first view has, ``PATH[+]`` for items only the
    second has (:func:`_aligned`)."""
    first, second = views
    if first[0] != "result" or second[0] != "result":
        kinds = [" ".join(map(str, v)) if v[0] != "result" else "result" for v in views]
        return frozenset({f"answer: {kinds[0]} / {kinds[1]}"})
    out: set[str] = set()
    _places(first[1], second[1], "$", out)
    return frozenset(out)


def recorded(expectations: Any, views_of: Callable[[str, dict, dict | None], tuple[Any, Any] | None],
             ops: list[str], edition: str | None = None) -> KnownDivergences:
    """The divergences ``expectations`` records for ``ops``: every case of the bundled suite of
    those operations held by the edition judged (``edition``; ``None``: each area's default) whose
    first matching entry for that edition has status
    ``fail``, with the places where ``views_of(op, input, tree)`` -- the two adapters' views of
    the case, ``None`` when one declined it -- differ. Cases on which the adapters agree record
    nothing."""
    from conformance.corpus.cases import SCENARIOS_DIR, load_suite
    from conformance.corpus.editions import holds, judged

    known = KnownDivergences()
    for case in load_suite(SCENARIOS_DIR).cases:
        if case.op not in ops:
            continue
        entry = expectations.match(case.id, judged(edition, case.area))
        if entry is None or entry.status != "fail":
            continue
        if not holds(case.editions, case.area, edition):
            continue
        tree = None if case.tree is None else tree_data(case.tree)
        views = views_of(case.op, case.input, tree)
        if views is None or golden.same(views[0], views[1]):
            continue
        known.by_op.setdefault(case.op, []).append(
            KnownCase(case.id, list(case.clauses), entry.reason, signature(views)))
    return known
