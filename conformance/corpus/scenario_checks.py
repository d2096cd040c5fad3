"""Checking the cases of one scenario file: the pydantic models of the format and every rule a case
must keep. Imported only when a file is checked, not when its cases come from the parse cache."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from conformance.corpus.areas import CLAUSE_PREFIX, SCENARIO_AREAS
from conformance.corpus.editions import of_area as edition_names
from conformance.corpus.editions import shared
from conformance.judge.normalise import names as normaliser_names
from conformance.operations import close_names
from conformance.operations import get as get_operation
from conformance.corpus.trees import TreeEntry, TreeError, parse_tree, tree_data
from conformance.corpus.yamlio import FileError, format_path, position_of, validation_errors

CASE_ID = r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"


class ExpectedError(BaseModel):
    """The spec error a case expects instead of a result."""

    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")


CITED_AT = "clauses@"
"""The prefix of a case's key ``clauses@EDITION`` (format 2): the clauses it cites only when judged
in that edition."""

_CITED_AT_SCHEMA = {"type": "array", "items": {"type": "string"}, "minItems": 1,
                    "description": "Format 2: the clauses this case cites only when it is judged in the "
                                   "edition named after the @ (an edition of the file's area that the case "
                                   "holds for; each clause holds in that edition)."}


class CaseModel(BaseModel):
    """One case as written in a scenario file. Besides these fields, a case of a format-2 file may
    have keys ``clauses@EDITION`` (checked apart from the model, see :func:`_cited_at`)."""

    model_config = ConfigDict(extra="forbid",
                              json_schema_extra={"patternProperties": {f"^{CITED_AT}": _CITED_AT_SCHEMA}})

    id: str = Field(pattern=CASE_ID, max_length=80)
    title: str = Field(min_length=1)
    clauses: list[str] = Field(min_length=1)
    tags: list[str] = []
    op: str | None = None
    input: dict[str, Any] = {}
    tree: dict[str, Any] | None = None
    error: ExpectedError | None = None
    normalise: list[str] = []
    requires: list[Literal["symlinks"]] = []
    editions: list[str] | None = Field(default=None, min_length=1)


class ScenarioFile(BaseModel):
    """A scenario file. Format versions: 1, the first published format; 2, a case may also cite
    clauses by edition, keys ``clauses@EDITION`` (a list of clause ids cited only when the case is
    judged in that edition; refused in a file of format 1)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "if": {"properties": {"format": {"const": 1}}},
        "then": {"properties": {"cases": {"items": {"propertyNames": {"not": {"pattern": f"^{CITED_AT}"}}}}}}})

    format: Literal[1, 2]
    area: Literal[SCENARIO_AREAS]  # type: ignore[valid-type]
    title: str = Field(min_length=1)
    description: str | None = None
    op: str | None = None
    cases: list[CaseModel] = Field(min_length=1)


Record = dict[str, Any]
"""A checked case as plain data: the fields of :class:`conformance.corpus.cases.Case` but ``file``, its
tree as written (``TreeEntry.as_data`` per entry) and its editions as a list."""


def check_file(data: Any, positions: Mapping, shown: str, folder: str, *, known_clauses: set[str] | None,
               clause_editions: dict[str, list[str] | None],
               wanted: Callable[[str, str | None], bool] | None, refused: set[str] | frozenset[str] = frozenset(),
               held: dict[str, list[str]] | None = None) -> tuple[list[Record], list[FileError]]:
    """The records of the good cases of one parsed scenario file (plain JSON data, what
    :class:`conformance.corpus.cases.Case` is made from, and what the parse cache keeps) and every
    error met: one :class:`~conformance.corpus.yamlio.FileError` per problem, with file, line,
    column and field.

    ``wanted(area, case_id)`` (when given) picks the cases to check (``case_id`` is ``None`` when
    the raw case has no string id); the others are neither checked nor returned.
    ``known_clauses``: the clause ids a case may cite (unchecked when ``None``);
    ``clause_editions``: clause id to its editions (``None``: all). A case citing one of the
    clauses the catalogue ``refused`` (its own error reported) is not loaded and not an error: its
    id is added to ``held`` under that clause.
    """
    head, errors = _file_head(data, positions, shown, folder)
    if head is None:
        return [], errors
    where = _Where(shown, positions, head, known_clauses, get_operation, normaliser_names(), clause_editions,
                   refused, {} if held is None else held)
    records: list[Record] = []
    for i, raw in enumerate(data["cases"]):
        cid = raw.get("id") if isinstance(raw, dict) else None
        if wanted is None or wanted(head.area, cid if isinstance(cid, str) else None):
            record, problems = _load_case(raw, ("cases", i), where)
            errors.extend(problems)
            records.extend([record] if record is not None else [])
    return records, [_counted(e, where.unknown_ops) for e in errors]


def _counted(error: FileError, unknown_ops: dict[str, int]) -> FileError:
    """``error`` naming how many cases of its file name its unknown operation, when more than one."""
    for name, count in unknown_ops.items():
        if count > 1 and error.message.startswith(f"unknown operation {name!r}"):
            return replace(error, message=f"{error.message} (named by {count} cases of this file, reported once)")
    return error


def _file_head(data: Any, positions: Mapping, shown: str, folder: str) -> tuple[ScenarioFile | None, list[FileError]]:
    """The file's frame (format, area, title, default op), validated before its cases so that one
    bad case keeps the rest; ``None`` and the errors when the frame itself is bad."""
    if not isinstance(data, dict):
        return None, [FileError(shown, 1, 1, "", "a scenario file is a mapping with format, area, title and cases")]
    frame = dict(data)
    frame["cases"] = [{"id": "placeholder", "title": "x", "clauses": ["X"]}]
    try:
        head = ScenarioFile.model_validate(frame, strict=True)
    except ValidationError as exc:
        return None, [e for e in validation_errors(exc, shown, positions) if not e.field.startswith("cases[")]
    raw_cases = data.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        return None, [FileError(shown, *position_of(positions, ("cases",)), "cases", "must be a non-empty list")]
    if folder in SCENARIO_AREAS and head.area != folder:
        return None, [FileError(shown, *position_of(positions, ("area",)), "area",
                                f"area {head.area!r} does not match the folder {folder!r}")]
    return head, []


@dataclass
class _Where:
    """What checking one file's cases needs: its shown path, positions and frame, the known
    clauses, the operation of a name (imported when first asked for) and the normalisers' names."""

    shown: str
    positions: Mapping
    head: ScenarioFile
    known_clauses: set[str] | None
    op: Callable[[str], Any]
    norms: set[str]
    clause_editions: dict[str, list[str] | None]
    refused: set[str] | frozenset[str]
    held: dict[str, list[str]]
    """Ids of the cases not loaded because they cite a clause the catalogue refused, by clause."""
    unknown_ops: dict[str, int] = field(default_factory=dict)
    """Each unknown operation name met in this file, with the number of cases naming it: it is
    reported once, at the first of them (:func:`_unknown_op`)."""

    def error(self, path: tuple, message: str) -> FileError:
        """An error at ``path`` (or its deepest existing prefix)."""
        return FileError(self.shown, *position_of(self.positions, path), format_path(path), message)


def _load_case(raw: Any, base: tuple, where: _Where) -> tuple[Record | None, list[FileError]]:
    """One case checked on its own: its record, or ``None`` and every problem found."""
    at_keys = [k for k in raw if isinstance(k, str) and k.startswith(CITED_AT)] if isinstance(raw, dict) else []
    try:
        model = CaseModel.model_validate({k: v for k, v in raw.items() if k not in at_keys} if at_keys else raw,
                                         strict=True)
    except ValidationError as exc:
        return None, validation_errors(exc, where.shown, where.positions, base)
    op_name = model.op or where.head.op
    problems = _op_problems(model, op_name, base, where)
    if op_name and where.unknown_ops.get(op_name, 0) > 1:
        return None, []  # reported once, at the file's first case naming it
    tree, tree_problems = _tree(model, base, where)
    problems += tree_problems + _name_problems(model, base, where)
    refused = [cid for cid in model.clauses if cid in where.refused]
    if refused and not problems:  # the catalogue's own error says why: not one error per case
        for cid in refused:
            where.held.setdefault(cid, []).append(model.id)
        return None, []
    editions = _case_editions(model, base, where, problems)
    cited_at = _cited_at(model, {k: raw[k] for k in at_keys}, editions, base, where, problems)
    if problems:
        return None, problems
    line, column = where.positions.get(base, (0, 0))
    return {"id": model.id, "title": model.title, "clauses": list(model.clauses), "tags": list(model.tags),
            "op": op_name, "input": model.input, "tree": None if tree is None else tree_data(tree),
            "error_code": model.error.code if model.error else None, "normalise": list(model.normalise),
            "requires": list(model.requires), "area": where.head.area, "line": line, "column": column,
            "editions": None if editions is None else list(editions), "clauses_at": cited_at}, []


def _cited_at(model: CaseModel, given: dict[str, Any], editions: tuple[str, ...] | None, base: tuple,
              where: _Where, problems: list[FileError]) -> dict[str, list[str]]:
    """The case's citations by edition (its keys ``clauses@EDITION``, format 2) as ``{edition:
    [clause ids]}``. Each problem is added to ``problems`` at its key: the key in a file of format
    1; an edition that is not one of the area's, or not one the case holds for (``editions``);
    a value that is not a non-empty list of ids; an unknown clause, one of another area, one that
    does not hold in that edition, or one the case's ``clauses`` cite already."""
    out: dict[str, list[str]] = {}
    area = where.head.area
    for key, ids in given.items():
        at = base + (key,)
        name = key[len(CITED_AT):]
        known = edition_names(area)
        if where.head.format < 2:
            problems.append(where.error(at, f"{key} needs format: 2 (citations by edition, AUTHORING.md); "
                                            f"this file is format {where.head.format}"))
        elif len(known) < 2:
            problems.append(where.error(at, f"area {area!r} has one edition ({', '.join(known) or 'none'}): "
                                            "cite the clause in clauses"))
        elif name not in known:
            problems.append(where.error(at, f"unknown edition {name!r} of area {area!r} "
                                            f"(the editions are {', '.join(known)})"))
        elif editions is not None and name not in editions:
            problems.append(where.error(at, f"the case holds in {', '.join(editions)} only, not in {name}"))
        elif not isinstance(ids, list) or not ids or not all(isinstance(cid, str) for cid in ids):
            problems.append(where.error(at, "must be a list of one or more clause ids"))
        else:
            bad = [_cited_at_problem(cid, name, model, where) for cid in ids]
            problems.extend(where.error(at + (j,), why) for j, why in enumerate(bad) if why)
            out[name] = list(ids)
    return out


def _cited_at_problem(cid: str, edition: str, model: CaseModel, where: _Where) -> str | None:
    """Why clause ``cid`` cannot be cited under ``edition`` by ``model``, or ``None``."""
    if where.known_clauses is not None and cid not in where.known_clauses:
        return f"unknown clause {cid!r} (not in conformance/spec)"
    prefix = CLAUSE_PREFIX.get(where.head.area)
    if prefix is not None and not cid.startswith(prefix):
        return f"clause {cid!r} is not of area {where.head.area!r} (its clauses start with {prefix})"
    held = where.clause_editions.get(cid)
    if held is not None and edition not in held:
        return f"clause {cid!r} does not hold in edition {edition} (its editions: {', '.join(held)})"
    if cid in model.clauses:
        return f"{cid!r} is cited in clauses already"
    return None


def _case_editions(model: CaseModel, base: tuple, where: _Where,
                   problems: list[FileError]) -> tuple[str, ...] | None:
    """The editions ``model`` holds for: those its clauses share, narrowed to its declared
    ``editions``; an edition outside them, or none at all, is added to ``problems``."""
    area = where.head.area
    if not edition_names(area):
        if model.editions is not None:
            problems.append(where.error(base + ("editions",), f"area {area!r} has no editions"))
        return None
    share = shared(area, [where.clause_editions.get(cid) for cid in model.clauses])
    if model.editions is None:
        if not share:
            problems.append(where.error(base + ("clauses",), "its clauses hold in no common edition"))
        return share
    for j, name in enumerate(model.editions):
        if name not in share:
            problems.append(where.error(base + ("editions", j), f"{name!r} is not an edition its clauses hold "
                                                                  f"for ({', '.join(share) or 'none'})"))
    return tuple(name for name in share if name in model.editions)


def _op_problems(model: CaseModel, op_name: str | None, base: tuple, where: _Where) -> list[FileError]:
    """The case's operation: named (here or by the file), known, of the file's area; its input
    valid against the operation's input model; a tree only where the operation takes one."""
    op = where.op(op_name) if op_name else None
    if not op_name:
        return [where.error(base + ("op",), "required field is missing (no file-level op either)")]
    if op is None:
        return _unknown_op(model, op_name, base, where)
    problems = []
    if op.area != where.head.area:
        problems.append(where.error(base + ("op",), f"operation {op_name!r} belongs to area {op.area!r}, "
                                                    f"not {where.head.area!r}"))
    try:
        op.input.model_validate(model.input, strict=True)
    except ValidationError as exc:
        problems.extend(validation_errors(exc, where.shown, where.positions, base + ("input",)))
    if model.tree is not None and not op.uses_tree:
        problems.append(where.error(base + ("tree",), f"operation {op_name!r} does not take a file tree"))
    return problems


def _unknown_op(model: CaseModel, op_name: str, base: tuple, where: _Where) -> list[FileError]:
    """One error per unknown operation name in a file, at its first case, with the closest
    known names (:func:`conformance.operations.close_names`) when one is close; the file's other cases naming it are
    not loaded and not reported again (:func:`check_file` adds their number to the one error)."""
    where.unknown_ops[op_name] = where.unknown_ops.get(op_name, 0) + 1
    if where.unknown_ops[op_name] > 1:
        return []
    near = close_names(op_name)
    hint = f"; did you mean {', '.join(near)}?" if near else " (the operations are listed in PROTOCOL.md)"
    return [where.error(base + ("op",) if model.op else ("op",), f"unknown operation {op_name!r}{hint}")]


def _tree(model: CaseModel, base: tuple, where: _Where) -> tuple[dict[str, TreeEntry] | None, list[FileError]]:
    if model.tree is None:
        return None, []
    try:
        return parse_tree(model.tree), []
    except ValueError as exc:  # parse_tree words a pydantic error as a ValueError of its own
        return None, [where.error(base + ("tree",) + ((exc.key,) if isinstance(exc, TreeError) else ()), str(exc))]


def _name_problems(model: CaseModel, base: tuple, where: _Where) -> list[FileError]:
    """Normalisers the kit does not declare; clauses the catalogue does not hold; clauses of
    another area than the file's."""
    problems = [where.error(base + ("normalise", j), f"unknown normaliser {name!r}")
                for j, name in enumerate(model.normalise) if name not in where.norms]
    if where.known_clauses is not None:
        problems += [where.error(base + ("clauses", j), f"unknown clause {cid!r} (not in conformance/spec)")
                     for j, cid in enumerate(model.clauses)
                     if cid not in where.known_clauses and cid not in where.refused]
    prefix = CLAUSE_PREFIX.get(where.head.area)
    if prefix is not None:  # a case proves only its own area's clauses: coverage counts them there
        problems += [where.error(base + ("clauses", j), f"clause {cid!r} is not of area {where.head.area!r} "
                                                       f"(its clauses start with {prefix})")
                     for j, cid in enumerate(model.clauses)
                     if not cid.startswith(prefix) and (where.known_clauses is None or cid in where.known_clauses)]
    return problems



