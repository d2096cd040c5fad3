"""Inputs generated from an operation's input model, for operations without a hand-written strategy:
a strategy built over the model's JSON schema, each draw checked by the model itself, never
drawing a value that runs a command."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

ALPHABET = "ab1_$-{}/.*+~:@ "
"""The characters of a drawn string: letters, digits and those the rules commonly treat specially.
A string never starts with ``!``: a ``models.json`` value starting with ``!`` is a shell command
(PI-MODELS-VALUE-COMMAND), and no generated input runs one."""
MAX_ITEMS = 3


def _text(schema: dict) -> Any:
    low = schema.get("minLength", 0)
    high = min(max(low, schema.get("maxLength", 8)), max(low, 8))
    return st.text(ALPHABET, min_size=low, max_size=high).filter(lambda s: not s.startswith("!"))


def _node(schema: dict, defs: dict, depth: int) -> Any:
    if "$ref" in schema:
        return _node(defs[schema["$ref"].rsplit("/", 1)[-1]], defs, depth)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([_node(s, defs, depth) for s in schema[key]])
    kind = schema.get("type")
    if kind is None:  # Any: a small JSON scalar
        return st.one_of(st.none(), st.booleans(), st.integers(-3, 3), _text({}))
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(schema.get("minimum", -5), schema.get("maximum", 100))
    if kind == "number":
        return st.one_of(st.integers(-5, 100), st.floats(0, 10, allow_nan=False))
    if kind == "string":
        return _text(schema)
    if kind == "array":
        if depth > 3:
            return st.just([])
        items = _node(schema.get("items", {}), defs, depth + 1)
        low = schema.get("minItems", 0)
        return st.lists(items, min_size=low, max_size=max(low, MAX_ITEMS))
    if kind == "object":
        return _object(schema, defs, depth)
    return st.none()


def _object(schema: dict, defs: dict, depth: int) -> Any:
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    if not props:
        extra = schema.get("additionalProperties")
        if depth > 3 or extra is False:
            return st.just({})
        values = _node(extra if isinstance(extra, dict) else {}, defs, depth + 1)
        return st.dictionaries(st.sampled_from(["a", "b", "X_1"]), values, max_size=MAX_ITEMS)

    @st.composite
    def build(draw: Any) -> dict:
        out = {}
        for name, sub in props.items():
            if name in required or draw(st.booleans()):
                out[name] = draw(_node(sub, defs, depth + 1))
        return out

    return build()


def from_model(model: type[BaseModel]) -> Any:
    """A strategy of JSON objects that ``model`` accepts (draws it refuses are rejected).

    Raises nothing at build time; a model whose schema gives mostly invalid draws makes hypothesis
    report a health-check failure when run.
    """
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})

    def valid(data: Any) -> bool:
        try:
            model.model_validate(data)
        except ValidationError:
            return False
        return True

    return _node(schema, defs, 0).filter(valid)
