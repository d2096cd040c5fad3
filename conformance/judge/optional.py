"""The rule for optional properties: absent and null mean the same where the output schema allows
null, so an answer and its golden are compared without such nulls."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=None)
def _schema(op: str) -> dict | None:
    from conformance.operations import get

    found = get(op)
    return found.output.model_json_schema() if found is not None else None


def resolve(schema: Any, defs: dict) -> Any:
    """``schema`` with its ``$ref`` followed into ``defs`` (a JSON Schema's ``$defs``)."""
    while isinstance(schema, dict) and "$ref" in schema:
        schema = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
    return schema


def allows_null(schema: Any, defs: dict) -> bool:
    """Whether ``schema`` (a JSON Schema, ``$ref`` links into ``defs``) accepts ``null``."""
    schema = resolve(schema, defs)
    if schema is True:
        return True
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if "const" in schema:
        return schema["const"] is None
    if "enum" in schema:
        return None in schema["enum"]
    alternatives = schema.get("anyOf", []) + schema.get("oneOf", [])
    if alternatives:
        return any(allows_null(s, defs) for s in alternatives)
    return kind is None  # a schema that names no type (any JSON value) accepts null


def branches(schema: Any, defs: dict) -> list:
    """The alternatives of ``schema`` (``anyOf``/``oneOf``, flattened, ``$ref`` links followed)."""
    schema = resolve(schema, defs)
    if not isinstance(schema, dict):
        return []
    alternatives = schema.get("anyOf", []) + schema.get("oneOf", [])
    if alternatives:
        return [b for a in alternatives for b in branches(a, defs)]
    return [schema]


def fits(branch: dict, value: Any) -> bool:
    """Whether ``value`` (an object or a list) may be an instance of the alternative ``branch``."""
    if isinstance(value, dict):
        if "properties" not in branch and "additionalProperties" not in branch:
            return False
        if branch.get("additionalProperties") is False and not set(value) <= set(branch.get("properties", {})):
            return False
        for key, sub in branch.get("properties", {}).items():
            if key in value and isinstance(sub, dict) and "const" in sub and value[key] != sub["const"]:
                return False
        return True
    if isinstance(value, list):
        return "items" in branch or branch.get("type") == "array"
    return False


def _walk(value: Any, schema: Any, defs: dict) -> Any:
    if not isinstance(value, (dict, list)):
        return value
    branch = next((b for b in branches(schema, defs) if fits(b, value)), None)
    if branch is None:
        return value
    if isinstance(value, list):
        items = branch.get("items", {})
        return [_walk(v, items, defs) for v in value]
    properties = branch.get("properties", {})
    extra = branch.get("additionalProperties")
    out = {}
    for key, item in value.items():
        if key in properties:
            if item is None and allows_null(properties[key], defs):
                continue
            out[key] = _walk(item, properties[key], defs)
        else:
            out[key] = _walk(item, extra, defs) if isinstance(extra, dict) else item
    return out


def drop_nulls(op: str, data: Any) -> Any:
    """``data`` (an answer's or golden's output of operation ``op``) without the properties that
    are ``null`` where ``op``'s output schema allows ``null``; ``data`` itself is not changed.
    An unknown ``op`` leaves ``data`` as it is.

    A property is what the schema declares by name (a ``properties`` entry, at any depth). A
    schema that forbids one of the two forms decides alone (the answer is checked against the
    schema first). Entries of a map (``additionalProperties``) and items of a list are values,
    not properties, and keep their ``null``: a ``thinkingLevelMap`` level written as ``null``
    says something its absence does not."""
    schema = _schema(op)
    if schema is None:
        return data
    return _walk(data, schema, schema.get("$defs", {}))
