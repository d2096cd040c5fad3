"""Facets: output fields that no clause of the specification defines, compared only for an
implementation that declares them in its handshake (``started``'s ``gives``) or for a case whose
clauses decide them; otherwise taken out of both the answer and the golden."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable

from conformance.judge.optional import branches, fits

FACETS: dict[str, tuple[str, str]] = {
    "diagnostic.scope": ("Diag", "scope"),
    "diagnostic.subject": ("Diag", "subject"),
    "diagnostic.detail": ("Diag", "detail"),
    "loser.reason": ("LoserOut", "reason"),
}
"""Each facet's name (as ``gives`` spells it) -> (the output schema's definition, its field). The
kit's diagnostics carry a ``scope``, a ``subject`` and a ``detail``, and a resolution's losers a
``reason``, which the kit's goldens record but no clause states (the published implementation's
diagnostics carry a level, a code and a message)."""

NEVER_COMPARED: dict[str, tuple[str, ...]] = {"Diag": ("message",)}
"""Fields an implementation may give that are never compared (text meant for people)."""

UNORDERED = frozenset({"Diag"})
"""Definitions whose lists are compared without regard to order: diagnostics (PROF-DIAG-CODES: the
diagnostics of one answer are a collection; ADAPTERS.md, "Diagnostics have no order")."""


def unknown(names: Iterable[str]) -> list[str]:
    """The names among ``names`` that are not facets, sorted."""
    return sorted(set(names) - set(FACETS))


@lru_cache(maxsize=None)
def _schema(op: str) -> dict | None:
    from conformance.operations import get

    found = get(op)
    return found.output.model_json_schema() if found is not None else None


def _def_name(schema: Any) -> str | None:
    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        return schema["$ref"].rsplit("/", 1)[-1]
    return None


def _walk(value: Any, schema: Any, defs: dict, drop: dict[str, set[str]]) -> Any:
    if not isinstance(value, (dict, list)):
        return value
    named = _def_name(schema)
    branch = next((b for b in branches(schema, defs) if fits(b, value)), None)
    if branch is None:
        return _loose(value, drop)
    if isinstance(value, list):
        items = branch.get("items", {})
        out = [_walk(v, items, defs, drop) for v in value]
        item_def = _def_name(items) or next((_def_name(a) for a in items.get("anyOf", []) if _def_name(a)), None) \
            if isinstance(items, dict) else None
        if item_def in UNORDERED:
            out.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return out
    if named is None:
        named = next((_def_name(a) for a in (schema.get("anyOf", []) if isinstance(schema, dict) else [])
                      if _def_name(a) and defs.get(_def_name(a)) is branch), None)
    properties = branch.get("properties", {})
    extra = branch.get("additionalProperties")
    gone = drop.get(named or "", set())
    typed_extra = isinstance(extra, dict) and bool(extra)
    return {key: _walk(item, properties[key], defs, drop) if key in properties
            else _walk(item, extra, defs, drop) if typed_extra
            else _loose(item, drop, LOOSE_KEYS.get(key))
            for key, item in value.items() if key not in gone}


LOOSE_KEYS = {"diagnostics": "Diag", "diagnostic": "Diag", "losers": "LoserOut"}
"""In a part of an output its schema leaves untyped (a ``profiles.session`` step's answer), the
keys whose values are of these definitions."""


def _loose(value: Any, drop: dict[str, set[str]], definition: str | None = None) -> Any:
    if isinstance(value, list):
        out = [_loose(v, drop, definition) for v in value]
        if definition in UNORDERED:
            out.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return out
    if not isinstance(value, dict):
        return value
    gone = drop.get(definition or "", set())
    return {k: _loose(v, drop, LOOSE_KEYS.get(k)) for k, v in value.items() if k not in gone}


def reduce(op: str, data: Any, gives: Iterable[str] | None = None) -> Any:
    """``data`` (an output of ``op``) with every facet not in ``gives`` taken out, every field of
    :data:`NEVER_COMPARED` taken out (a diagnostic's ``message``), and each list of
    :data:`UNORDERED` items sorted (the specification gives diagnostics no order).
    ``gives=None`` keeps every facet (what the bundled reference gives). ``data`` is not changed."""
    schema = _schema(op)
    if schema is None:
        return data
    given = set(FACETS) if gives is None else set(gives)
    drop: dict[str, set[str]] = {name: set(fields) for name, fields in NEVER_COMPARED.items()}
    for facet, (definition, field) in FACETS.items():
        if facet not in given:
            drop.setdefault(definition, set()).add(field)
    return _walk(data, schema, schema.get("$defs", {}), drop)
