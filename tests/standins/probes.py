"""Probe implementations: the reference with one trait of another implementation each.

Run in process (``python:tests.standins.probes:CLASS``). Each gives what the specification asks in
a form the kit must accept:

- ``NullForAbsent``: every optional property the output schema declares and allows ``null`` for,
  and that the reference leaves out, given as ``null`` (as a JavaScript implementation that
  writes ``undefined`` fields as ``null`` would);
- ``AbsentForNull``: every such property that the reference gives as ``null`` left out, where
  the schema does not require it;
- ``ReversedDiagnostics``: every list of diagnostics of a profiles or envelope answer reversed.
"""

from __future__ import annotations

from typing import Any

from conformance.adapters.reference import ReferenceImplementation
from conformance.operations import get
from conformance.judge.optional import allows_null, resolve as _resolve


def _object_schemas(schema: Any, defs: dict) -> list[dict]:
    schema = _resolve(schema, defs)
    if not isinstance(schema, dict):
        return []
    alternatives = schema.get("anyOf", []) + schema.get("oneOf", [])
    if alternatives:
        return [s for a in alternatives for s in _object_schemas(a, defs)]
    return [schema] if "properties" in schema else []


def _reshape(value: Any, schema: Any, defs: dict, fill: bool) -> Any:
    schema = _resolve(schema, defs)
    if isinstance(value, list):
        branches = [schema] + [_resolve(a, defs) for a in schema.get("anyOf", [])] if isinstance(schema, dict) else []
        items = next((b["items"] for b in branches if isinstance(b, dict) and "items" in b), None)
        return [_reshape(v, items, defs, fill) for v in value] if items is not None else value
    if not isinstance(value, dict) or not isinstance(schema, dict):
        return value
    candidates = [s for s in _object_schemas(schema, defs) if set(value) <= set(s["properties"])]
    if not candidates:
        extra = schema.get("additionalProperties")
        return {k: _reshape(v, extra, defs, fill) for k, v in value.items()} if isinstance(extra, dict) else value
    properties, required = candidates[0]["properties"], set(candidates[0].get("required", []))
    out: dict[str, Any] = {}
    for key, sub in properties.items():
        if key in value:
            if value[key] is None and not fill and key not in required and allows_null(sub, defs):
                continue
            out[key] = _reshape(value[key], sub, defs, fill)
        elif fill and allows_null(sub, defs) and len(candidates) == 1:
            out[key] = None
    return out


class _Reshaped(ReferenceImplementation):
    fill = True

    def run(self, op: str, input: dict, root: str | None) -> dict:
        output = super().run(op, input, root)
        schema = get(op).output.model_json_schema()
        return _reshape(output, schema, schema.get("$defs", {}), self.fill)


class NullForAbsent(_Reshaped):
    """The reference, with every optional nullable property it leaves out given as ``null``."""

    name = "null-for-absent"


class AbsentForNull(_Reshaped):
    """The reference, with every optional nullable property it gives as ``null`` left out."""

    name = "absent-for-null"
    fill = False


def _published_diagnostics(value: Any) -> Any:
    if isinstance(value, list):
        return [_published_diagnostics(v) for v in value]
    if not isinstance(value, dict):
        return value
    if set(value) >= {"level", "code"} and set(value) <= {"level", "code", "scope", "subject", "detail"}:
        return {"level": value["level"], "code": value["code"], "message": f"{value['code']}: see the docs"}
    out = {k: _published_diagnostics(v) for k, v in value.items()}
    if isinstance(out.get("losers"), list):
        out["losers"] = [{k: v for k, v in loser.items() if k != "reason"} for loser in out["losers"]]
    return out


class PublishedDiagnostics(ReferenceImplementation):
    """The reference, with diagnostics as the published pi-prompt-profiles gives them (a level, a
    code and a message; no scope, subject or detail), the losers of a resolution without their
    reason, and no facet declared."""

    name = "published-diagnostics"
    gives = ()

    def run(self, op: str, input: dict, root: str | None) -> dict:
        output = super().run(op, input, root)
        return _published_diagnostics(output) if op.startswith("profiles.") else output


def _reversed_diagnostics(value: Any) -> Any:
    if isinstance(value, list):
        return [_reversed_diagnostics(v) for v in value]
    if not isinstance(value, dict):
        return value
    return {k: list(reversed(_reversed_diagnostics(v))) if k == "diagnostics" and isinstance(v, list)
            else _reversed_diagnostics(v) for k, v in value.items()}


class ReversedDiagnostics(ReferenceImplementation):
    """The reference, with every list of diagnostics of a profiles or envelope answer (at any
    depth: a resolution's, a session step's) in the reverse order, as an implementation that
    reports them in the order it meets them rather than the reference's sorted order would."""

    name = "reversed-diagnostics"

    def run(self, op: str, input: dict, root: str | None) -> dict:
        output = super().run(op, input, root)
        return _reversed_diagnostics(output) if op.startswith(("profiles.", "envelope.")) else output
