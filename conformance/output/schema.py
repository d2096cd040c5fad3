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
        if op.errors:  # the error codes it may answer that no clause names, with their meanings
            out[f"operations/{name}.output.json"]["x-errors"] = dict(sorted(op.errors.items()))
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


WRITTEN_LIST = ".pi-conformance-schemas"
"""The file in a schema folder other than the kit's own that lists, one a line, the schema files
:func:`write_schemas` wrote there: the only ones a later write may remove."""

KIT_SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
"""The kit's own published schemas (package data), every file of which the kit wrote."""


def _written_before(out: Path) -> list[str]:
    """The schema files under ``out`` the kit wrote (relative paths): in its own folder every file
    named as a schema, elsewhere those :data:`WRITTEN_LIST` lists (none when it cannot be read)."""
    if out.resolve() == KIT_SCHEMA_DIR:
        return _named_as_schemas(out)
    try:
        listed = (out / WRITTEN_LIST).read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError):
        return []
    return [rel for rel in listed if rel in _named_as_schemas(out)]


def write_schemas(out: Path) -> list[Path]:
    """Write every schema under ``out`` and remove schema files no model produces any more, among
    those the kit wrote: in its own folder (:data:`KIT_SCHEMA_DIR`) the files named as schemas
    (:func:`_named_as_schemas`), elsewhere only those the last write listed in
    :data:`WRITTEN_LIST`, so that a user's own ``*.schema.json`` beside them is never removed.
    Raises ``ValueError``, writing nothing, when a schema would replace a file the kit did not
    write there (not listed, and not already the same bytes)."""
    schemas = generate()
    own = out.resolve() == KIT_SCHEMA_DIR
    listed = out / WRITTEN_LIST
    before = _written_before(out)
    foreign = [rel for rel in sorted(schemas) if not own and rel not in before and (out / rel).exists()
               and (out / rel).read_bytes() != _text(schemas[rel]).encode("utf-8")]
    if foreign:  # a file of that name the kit did not write (none listed it): the user's own
        raise ValueError(f"--out {out}: {out / foreign[0]} exists and is not a schema the kit wrote there, and would "
                         "be replaced; give a folder of the schemas' own (a new or empty one)")
    written = []
    for rel, schema in schemas.items():
        path = out / rel
        write_text(path, _text(schema))
        written.append(path)
    for rel in before:
        if rel not in schemas:
            (out / rel).unlink()
    if not own:
        write_text(listed, "".join(f"{rel}\n" for rel in sorted(schemas)))
    return written


def stale_schemas(out: Path) -> list[str]:
    """Schema files under ``out`` that are missing, different, or no longer produced (among the
    files the kit wrote there, :func:`_written_before`)."""
    schemas = generate()
    stale = []
    for rel, schema in schemas.items():
        path = out / rel
        if not path.exists() or path.read_text(encoding="utf-8") != _text(schema):
            stale.append(rel)
    stale += [rel for rel in _written_before(out) if rel not in schemas]
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
