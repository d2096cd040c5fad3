"""Scenario files: their pydantic models and the loader.

A scenario file (``conformance/scenarios/<area>/<topic>.yaml``, format version
``conformance.SCENARIO_FORMAT``) holds a small group of related cases; see
``conformance/AUTHORING.md`` for the format. :func:`load_suite` reads every file, validates each
case (its fields, its operation, its input against the operation's input model, its tree, its
normalisers and capabilities) and returns the good cases together with one
:class:`~conformance.yamlio.FileError` per problem, with file, line, column and field. A bad file
or case never hides the others.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from conformance import SCENARIO_FORMAT
from conformance.catalogue import AREAS, SCENARIO_AREAS, load_catalogue
from conformance.editions import holds, shared
from conformance.editions import of_area as edition_names
from conformance.normalise import normalisers
from conformance.operations import catalogue as op_catalogue
from conformance.trees import TreeEntry, parse_tree
from conformance.yamlio import (
    FileError,
    SuiteFileError,
    load_with_positions,
    position_of,
    validation_errors,
)

SCENARIOS_DIR = Path(__file__).resolve().parent / "scenarios"
CASE_ID = r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"
CAPABILITIES = ("symlinks",)


class ExpectedError(BaseModel):
    """The spec error a case expects instead of a result."""

    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")


class CaseModel(BaseModel):
    """One case as written in a scenario file."""

    model_config = ConfigDict(extra="forbid")

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
    """A scenario file."""

    model_config = ConfigDict(extra="forbid")

    format: Literal[1]
    area: Literal[SCENARIO_AREAS]  # type: ignore[valid-type]
    title: str = Field(min_length=1)
    description: str | None = None
    op: str | None = None
    cases: list[CaseModel] = Field(min_length=1)


@dataclass
class Case:
    """A loaded, validated case.

    Attributes:
        id, title, clauses, tags, op, input, error_code, normalise, requires: as in the file
            (``op`` resolved from the file's default, ``error_code`` from ``error.code``).
        tree: the validated tree entries, or ``None``.
        area: the file's area. file, line: where the case is written.
        editions: the editions of its area the case holds for (declared, else those its clauses
            share; ``conformance.editions``), or ``None`` for a case of an area without editions.
    """

    id: str
    title: str
    clauses: list[str]
    tags: list[str]
    op: str
    input: dict[str, Any]
    tree: dict[str, TreeEntry] | None
    error_code: str | None
    normalise: list[str]
    requires: list[str]
    area: str
    file: str
    line: int
    column: int = 1
    editions: tuple[str, ...] | None = None


@dataclass
class Suite:
    """Every loaded case (in file order) and every error met."""

    cases: list[Case] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)

    def by_id(self) -> dict[str, Case]:
        return {c.id: c for c in self.cases}


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def retired_ids(scenarios_dir: Path) -> tuple[set[str], list[FileError]]:
    """Ids listed in ``ids.yaml`` (``retired: [{id, reason, replacedBy?}]``): never to be reused."""
    path = scenarios_dir / "ids.yaml"
    if not path.exists():
        return set(), []
    shown = _display(path)
    try:
        data, positions = load_with_positions(path, shown)
    except SuiteFileError as exc:
        return set(), exc.errors
    out: set[str] = set()
    errors: list[FileError] = []
    items = (data or {}).get("retired", []) if isinstance(data, dict) else None
    if not isinstance(items, list):
        return set(), [FileError(shown, 1, 1, "retired", "must be a list of {id, reason}")]
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item.get("reason"):
            line, col = positions.get(("retired", i), (0, 0))
            errors.append(FileError(shown, line, col, f"retired[{i}]", "needs an id and a reason"))
            continue
        out.add(item["id"])
    return out, errors


def load_file(path: Path, *, known_clauses: set[str] | None = None,
              clause_editions: dict[str, list[str] | None] | None = None) -> tuple[list[Case], list[FileError]]:
    """Load one scenario file: the good cases and the errors (with positions).

    ``clause_editions`` (clause id: its editions, ``None`` for all) gives each case the editions
    its clauses share; a case whose clauses share none, or that declares an edition its clauses
    do not hold for, is an error."""
    shown = _display(path)
    try:
        data, positions = load_with_positions(path, shown)
    except SuiteFileError as exc:
        return [], exc.errors
    if not isinstance(data, dict):
        return [], [FileError(shown, 1, 1, "", "a scenario file is a mapping with format, area, title and cases")]
    # Validate the file's frame first, then each case on its own so one bad case keeps the rest.
    raw_cases = data.get("cases")
    frame = dict(data)
    frame["cases"] = [{"id": "placeholder", "title": "x", "clauses": ["X"]}]
    try:
        head = ScenarioFile.model_validate(frame, strict=True)
    except ValidationError as exc:
        return [], [e for e in validation_errors(exc, shown, positions) if not e.field.startswith("cases[")]
    if not isinstance(raw_cases, list) or not raw_cases:
        return [], [FileError(shown, *position_of(positions, ("cases",)), "cases", "must be a non-empty list")]
    folder = path.parent.name
    if folder in AREAS + ("kit",) and head.area != folder:
        return [], [FileError(shown, *position_of(positions, ("area",)), "area",
                              f"area {head.area!r} does not match the folder {folder!r}")]
    ops = op_catalogue()
    norms = normalisers()
    cases: list[Case] = []
    errors: list[FileError] = []
    for i, raw in enumerate(raw_cases):
        base = ("cases", i)
        try:
            model = CaseModel.model_validate(raw, strict=True)
        except ValidationError as exc:
            errors.extend(validation_errors(exc, shown, positions, base))
            continue
        problems: list[FileError] = []

        def problem(sub: tuple, msg: str) -> None:
            line, col = position_of(positions, base + sub)
            problems.append(FileError(shown, line, col, _fmt(base + sub), msg))

        op_name = model.op or head.op
        op = ops.get(op_name) if op_name else None
        if not op_name:
            problem(("op",), "required field is missing (no file-level op either)")
        elif op is None:
            if model.op:
                problem(("op",), f"unknown operation {op_name!r}")
            else:
                line, col = position_of(positions, ("op",))
                problems.append(FileError(shown, line, col, "op", f"unknown operation {op_name!r}"))
        elif op.area != head.area:
            problem(("op",), f"operation {op_name!r} belongs to area {op.area!r}, not {head.area!r}")
        if op is not None:
            try:
                op.input.model_validate(model.input, strict=True)
            except ValidationError as exc:
                problems.extend(validation_errors(exc, shown, positions, base + ("input",)))
            if model.tree is not None and not op.uses_tree:
                problem(("tree",), f"operation {op_name!r} does not take a file tree")
        tree = None
        if model.tree is not None:
            try:
                tree = parse_tree(model.tree)
            except (ValueError, ValidationError) as exc:
                problem(("tree",), _short(exc))
        for j, name in enumerate(model.normalise):
            if name not in norms:
                problem(("normalise", j), f"unknown normaliser {name!r}")
        if known_clauses is not None:
            for j, cid in enumerate(model.clauses):
                if cid not in known_clauses:
                    problem(("clauses", j), f"unknown clause {cid!r} (not in conformance/spec)")
        editions = _case_editions(model, head.area, clause_editions or {}, problem)
        if problems:
            errors.extend(problems)
            continue
        line, column = positions.get(base, (0, 0))
        cases.append(Case(
            id=model.id, title=model.title, clauses=list(model.clauses), tags=list(model.tags),
            op=op_name, input=model.input, tree=tree,
            error_code=model.error.code if model.error else None,
            normalise=list(model.normalise), requires=list(model.requires),
            area=head.area, file=shown, line=line, column=column, editions=editions,
        ))
    return cases, errors


def _case_editions(model: CaseModel, area: str, clause_editions: dict[str, list[str] | None],
                   problem) -> tuple[str, ...] | None:
    """The editions ``model`` holds for: those its clauses share, narrowed to its declared
    ``editions``; ``problem(path, message)`` is told of an edition outside them or none at all."""
    if not edition_names(area):
        if model.editions is not None:
            problem(("editions",), f"area {area!r} has no editions")
        return None
    share = shared(area, [clause_editions.get(cid) for cid in model.clauses])
    if model.editions is None:
        if not share:
            problem(("clauses",), "its clauses hold in no common edition")
        return share
    for j, name in enumerate(model.editions):
        if name not in share:
            problem(("editions", j), f"{name!r} is not an edition its clauses hold for "
                                     f"({', '.join(share) or 'none'})")
    return tuple(name for name in share if name in model.editions)


def _fmt(path: tuple) -> str:
    from conformance.yamlio import format_path

    return format_path(path)


def _short(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" if e["loc"] else e["msg"]
                         for e in exc.errors())
    return str(exc)


def load_suite(scenarios_dir: Path = SCENARIOS_DIR, *, areas: list[str] | None = None,
               spec_dir: Path | None = None) -> Suite:
    """Load every scenario file under ``scenarios_dir`` (``<area>/*.yaml``).

    Cases are checked across files too: duplicate ids and reuse of retired ids are errors (the
    later case is dropped). ``areas`` limits which area folders are read. The clause ids a case
    names must exist in the spec catalogue.
    """
    suite = Suite()
    retired, errs = retired_ids(scenarios_dir)
    suite.errors.extend(errs)
    cat = load_catalogue(spec_dir) if spec_dir is not None else load_catalogue()
    suite.errors.extend(cat.errors)
    known = set(cat.clauses)
    seen: dict[str, Case] = {}
    for path in sorted(scenarios_dir.glob("*/*.y*ml")):
        if areas and path.parent.name not in areas:
            continue
        if path.suffix != ".yaml":
            suite.errors.append(FileError(_display(path), 0, 0, "", "scenario files end in .yaml; this file is not read"))
            continue
        if path.parent.name not in SCENARIO_AREAS:
            suite.errors.append(FileError(_display(path), 0, 0, "",
                                          f"scenario folders are {', '.join(SCENARIO_AREAS)}; this file is not read"))
            continue
        cases, errors = load_file(path, known_clauses=known,
                                  clause_editions={cid: c.editions for cid, c in cat.clauses.items()})
        suite.errors.extend(errors)
        for case in cases:
            if case.id in seen:
                other = seen[case.id]
                suite.errors.append(FileError(case.file, case.line, case.column, "id",
                                              f"case id {case.id!r} is also used at {other.file}:{other.line}"))
                continue
            if case.id in retired:
                suite.errors.append(FileError(case.file, case.line, case.column, "id",
                                              f"case id {case.id!r} is retired (ids.yaml) and may not be reused"))
                continue
            seen[case.id] = case
            suite.cases.append(case)
    return suite


def select(items, *, areas=None, patterns=None, edition: str | None = None) -> list:
    """The items (cases, invariants, seeded faults: anything with ``id`` and ``area``) in the
    given areas whose id matches any of the glob ``patterns`` (all when none), in their order.
    With ``edition``, only the cases judged in a run of that edition (an item without
    ``editions`` always is)."""
    return [item for item in items if (not areas or item.area in areas)
            and (not patterns or any(fnmatch.fnmatchcase(item.id, p) for p in patterns))
            and holds(getattr(item, "editions", None), item.area, edition)]
