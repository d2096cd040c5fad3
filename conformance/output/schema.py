"""JSON Schemas of the public contract, generated from the pydantic models.

Written to ``conformance/schema/``: ``scenario.schema.json`` (a scenario file),
``expectations.schema.json``, ``catalogue.schema.json`` (a clause file), ``golden.schema.json``
and ``operations/<op>.input.json`` / ``operations/<op>.output.json`` for every operation. The
tests fail when the committed files differ from what the models generate.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from conformance.corpus.scenario_checks import ScenarioFile
from conformance.output.files import write_text
from conformance.corpus.catalogue_models import ClauseFile
from conformance.judge.expectations import ExpectationsFile
from conformance.operations import catalogue

GOLDEN_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Golden",
    "description": "One golden file: the reference's answer to one case.",
    "type": "object",
    "required": ["case", "op", "output"],
    "additionalProperties": False,
    "properties": {"case": {"type": "string"}, "op": {"type": "string"}, "output": {}},
}


def _schema(model: type[BaseModel], title: str | None = None) -> dict:
    schema = model.model_json_schema()
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
    if title:
        schema["title"] = title
    return schema


def generate() -> dict[str, dict]:
    """Relative file name -> schema, for every published schema."""
    out = {
        "scenario.schema.json": _schema(ScenarioFile, "Scenario file"),
        "expectations.schema.json": _schema(ExpectationsFile, "Expectations file"),
        "catalogue.schema.json": _schema(ClauseFile, "Clause catalogue file"),
        "golden.schema.json": GOLDEN_SCHEMA,
    }
    for name, op in sorted(catalogue().items()):
        out[f"operations/{name}.input.json"] = _schema(op.input, f"{name} input")
        out[f"operations/{name}.output.json"] = _schema(op.output, f"{name} output")
    return out


def _text(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _named_as_schemas(out: Path) -> list[str]:
    """The files under ``out`` whose names are of the kind :func:`generate` gives
    (``*.schema.json``, ``operations/*.input.json``, ``operations/*.output.json``), relative to
    ``out``: the only ones a schema folder's other files may be judged and removed among, so that
    ``--out`` naming a folder of other JSON files (``package.json``) loses none of them."""
    found = [p.name for p in out.glob("*.schema.json")]
    found += [f"operations/{p.name}" for pattern in ("*.input.json", "*.output.json")
              for p in (out / "operations").glob(pattern)]
    return sorted(found)


def write_schemas(out: Path) -> list[Path]:
    """Write every schema under ``out`` and remove schema files no model produces any more (files
    named as schemas are, :func:`_named_as_schemas`; no other file is touched)."""
    schemas = generate()
    written = []
    for rel, schema in schemas.items():
        path = out / rel
        write_text(path, _text(schema))
        written.append(path)
    for rel in _named_as_schemas(out):
        if rel not in schemas:
            (out / rel).unlink()
    return written


def stale_schemas(out: Path) -> list[str]:
    """Schema files under ``out`` that are missing, different, or no longer produced (among the
    files named as schemas, :func:`_named_as_schemas`)."""
    schemas = generate()
    stale = []
    for rel, schema in schemas.items():
        path = out / rel
        if not path.exists() or path.read_text(encoding="utf-8") != _text(schema):
            stale.append(rel)
    stale += [rel for rel in _named_as_schemas(out) if rel not in schemas]
    return sorted(stale)


def optional_fields(schema: dict) -> list[tuple[str, object]]:
    """Every property of ``schema`` (an operation's input schema) that is not ``required``, at any
    depth, as ``(path, default)`` in schema order, each path once: ``a.b`` a property of an
    object, ``a[]`` the items of a list, ``a{}`` the values of a map; a property without a
    ``default`` gets ``None``. What a case may leave out of its input (ADAPTERS.md)."""
    defs = schema.get("$defs", {})
    found: dict[str, object] = {}

    def walk(node: dict, path: str, seen: frozenset) -> None:
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                walk(defs[name], path, seen | {name})
            return
        for key in ("allOf", "anyOf", "oneOf"):
            for member in node.get(key, []):
                walk(member, path, seen)
        required = set(node.get("required", []))
        for name, prop in node.get("properties", {}).items():
            where = f"{path}.{name}" if path else name
            if name not in required:
                found.setdefault(where, prop.get("default"))
            walk(prop, where, seen)
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{path}[]", seen)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{path}{{}}", seen)

    walk(schema, "", frozenset())
    return list(found.items())


def optional_fields_markdown() -> str:
    """The list of :func:`optional_fields` of every operation's input, as ADAPTERS.md shows it:
    one bullet per operation with at least one, ``path`` (= default as JSON) each."""
    lines = []
    for name, op in sorted(catalogue().items()):
        fields = optional_fields(_schema(op.input))
        if fields:
            shown = ", ".join(f"`{path}` = `{json.dumps(default, ensure_ascii=False)}`" for path, default in fields)
            lines.append(f"- `{name}`: {shown}")
    return "\n".join(lines) + "\n"
