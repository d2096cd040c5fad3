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
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from conformance import SCENARIO_FORMAT
from conformance.catalogue import SCENARIO_AREAS, load_catalogue
from conformance.editions import holds, shared
from conformance.editions import of_area as edition_names
from conformance.normalise import names as normaliser_names
from conformance.operations import get as get_operation
from conformance.trees import TreeEntry, parse_tree
from conformance.yamlio import (
    FileError,
    SuiteFileError,
    format_path,
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
    """The loaded cases (in file order) and every error met.

    Attributes:
        cases: the good cases read (all of them, or those of a selection).
        errors: one :class:`~conformance.yamlio.FileError` per problem in the files read.
        ids: every case id of the whole suite, even when only a selection was read (then taken
            from a scan of the unread files' ``id:`` lines, see :func:`scan_ids`).
        complete: whether every scenario file was read, so that suite-wide checks (orphaned
            goldens) can be judged.
    """

    cases: list[Case] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    complete: bool = True

    def by_id(self) -> dict[str, Case]:
        return {c.id: c for c in self.cases}

    def golden_ids(self) -> set[str]:
        """The ids whose goldens are not orphaned: the cases that expect a golden (those without
        an expected error) when every file was read; every id written in the suite otherwise."""
        return {c.id for c in self.cases if c.error_code is None} if self.complete else set(self.ids)


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


Wanted = Callable[[str, Any], bool]
"""A selection of raw cases: ``wanted(area, raw_case)``."""


def load_file(path: Path, *, known_clauses: set[str] | None = None, wanted: Wanted | None = None,
              clause_editions: dict[str, list[str] | None] | None = None,
              refused: set[str] | None = None, held: dict[str, list[str]] | None = None,
              ) -> tuple[list[Case], list[FileError]]:
    """Load one scenario file: the good cases and the errors (with file, line, column and field).

    ``wanted`` (when given) picks the raw cases to validate; the others are neither checked nor
    returned. ``known_clauses``: the clause ids a case may cite (unchecked when ``None``).
    ``clause_editions`` (clause id: its editions, ``None`` for all) gives each case the editions
    its clauses share; a case whose clauses share none, or that declares an edition its clauses
    do not hold for, is an error. A case citing one of the clauses the catalogue ``refused`` (its
    own error reported) is not loaded: its id is added to ``held`` under that clause, or without
    ``held`` the file gets one error naming those cases.
    """
    shown = _display(path)
    try:
        data, positions = load_with_positions(path, shown)
    except SuiteFileError as exc:
        return [], exc.errors
    head, errors = _file_head(data, positions, shown, path.parent.name)
    if head is None:
        return [], errors
    where = _Where(shown, positions, head, known_clauses, get_operation, normaliser_names(), clause_editions or {},
                   refused or set(), {} if held is None else held)
    cases: list[Case] = []
    for i, raw in enumerate(data["cases"]):
        if wanted is None or wanted(head.area, raw):
            case, problems = _load_case(raw, ("cases", i), where)
            errors.extend(problems)
            cases.extend([case] if case is not None else [])
    if held is None and where.held:
        errors.append(held_error(shown, where.held))
    return cases, errors


def held_error(where: str, held: dict[str, list[str]]) -> FileError:
    """One error for every case not loaded because it cites a clause the catalogue refused
    (``held``: clause id to case ids), reported after the catalogue's own errors."""
    ids = sorted({cid for cases in held.values() for cid in cases})
    clauses = sorted(held)
    return FileError(where, 0, 0, "", f"{len(ids)} case(s) not loaded ({', '.join(ids[:3])}{', ...' * (len(ids) > 3)}): "
                                      f"they cite {', '.join(clauses[:5])}{', ...' * (len(clauses) > 5)}, which the "
                                      "catalogue refused; fix its error(s) above first")


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
    refused: set[str] = field(default_factory=set)
    held: dict[str, list[str]] = field(default_factory=dict)
    """Ids of the cases not loaded because they cite a clause the catalogue refused, by clause."""

    def error(self, path: tuple, message: str) -> FileError:
        """An error at ``path`` (or its deepest existing prefix)."""
        return FileError(self.shown, *position_of(self.positions, path), format_path(path), message)


def _load_case(raw: Any, base: tuple, where: _Where) -> tuple[Case | None, list[FileError]]:
    """One case checked on its own: the :class:`Case`, or ``None`` and every problem found."""
    try:
        model = CaseModel.model_validate(raw, strict=True)
    except ValidationError as exc:
        return None, validation_errors(exc, where.shown, where.positions, base)
    op_name = model.op or where.head.op
    problems = _op_problems(model, op_name, base, where)
    tree, tree_problems = _tree(model, base, where)
    problems += tree_problems + _name_problems(model, base, where)
    refused = [cid for cid in model.clauses if cid in where.refused]
    if refused and not problems:  # the catalogue's own error says why: not one error per case
        for cid in refused:
            where.held.setdefault(cid, []).append(model.id)
        return None, []
    editions = _case_editions(model, base, where, problems)
    if problems:
        return None, problems
    line, column = where.positions.get(base, (0, 0))
    return Case(id=model.id, title=model.title, clauses=list(model.clauses), tags=list(model.tags),
                op=op_name, input=model.input, tree=tree, error_code=model.error.code if model.error else None,
                normalise=list(model.normalise), requires=list(model.requires),
                area=where.head.area, file=where.shown, line=line, column=column, editions=editions), []


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
        return [where.error(base + ("op",) if model.op else ("op",), f"unknown operation {op_name!r}")]
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


def _tree(model: CaseModel, base: tuple, where: _Where) -> tuple[dict[str, TreeEntry] | None, list[FileError]]:
    if model.tree is None:
        return None, []
    try:
        return parse_tree(model.tree), []
    except (ValueError, ValidationError) as exc:
        return None, [where.error(base + ("tree",), _short(exc))]


def _name_problems(model: CaseModel, base: tuple, where: _Where) -> list[FileError]:
    """Normalisers the kit does not declare; clauses the catalogue does not hold."""
    problems = [where.error(base + ("normalise", j), f"unknown normaliser {name!r}")
                for j, name in enumerate(model.normalise) if name not in where.norms]
    if where.known_clauses is not None:
        problems += [where.error(base + ("clauses", j), f"unknown clause {cid!r} (not in conformance/spec)")
                     for j, cid in enumerate(model.clauses)
                     if cid not in where.known_clauses and cid not in where.refused]
    return problems


def _short(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" if e["loc"] else e["msg"]
                         for e in exc.errors())
    return str(exc)


# A case's own ``id:`` line: at the start of its line, perhaps after the item's dash, quoted or not.
_ID_LINE = re.compile(r"""^([ \t]*(?:-[ \t]+)?)["']?id["']?[ \t]*:[ \t]*["']?([a-z0-9][a-z0-9-]*)["']?[ \t]*(?:#.*)?$""",
                      re.MULTILINE)


def scan_ids(path: Path) -> list[str]:
    """The case ids written in a scenario file, found without parsing it: the ``id:`` lines of
    the least indentation (a case's own id; ids nested in inputs sit deeper). A cheap index for
    choosing which files a selection must read; an unreadable file gives ``[]``."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    found = [(len(m.group(1).expandtabs()), m.group(2)) for m in _ID_LINE.finditer(text)]
    least = min((indent for indent, _ in found), default=0)
    return [cid for indent, cid in found if indent == least]


def scenario_files(scenarios_dir: Path, errors: list[FileError]) -> list[Path]:
    """The scenario files under ``scenarios_dir`` (``<area>/*.yaml``), in name order. A file with
    another suffix or in another folder is reported in ``errors`` and left out."""
    paths = []
    for path in sorted(scenarios_dir.glob("*/*.y*ml")):
        if path.suffix != ".yaml":
            errors.append(FileError(_display(path), 0, 0, "", "scenario files end in .yaml; this file is not read"))
        elif path.parent.name not in SCENARIO_AREAS:
            errors.append(FileError(_display(path), 0, 0, "",
                                    f"scenario folders are {', '.join(SCENARIO_AREAS)}; this file is not read"))
        else:
            paths.append(path)
    return paths


def load_suite(scenarios_dir: Path = SCENARIOS_DIR, *, areas: list[str] | None = None,
               patterns: list[str] | None = None, spec_dir: Path | None = None) -> Suite:
    """Load the scenario files under ``scenarios_dir`` (``<area>/*.yaml``).

    Cases are checked across files too: duplicate ids and reuse of retired ids are errors (the
    later case is dropped). The clause ids a case names must exist in the spec catalogue.

    A selection (``areas``; ``patterns``, globs on case ids) is made before parsing: only the
    files of those areas whose ``id:`` lines (:func:`scan_ids`) match are read, and only the
    selected cases in them are checked. The suite is then not ``complete``, and its ``ids`` come
    from the scan of every file.
    """
    selecting = bool(areas or patterns)
    suite = Suite(complete=not selecting)
    retired, errs = retired_ids(scenarios_dir)
    suite.errors.extend(errs)
    cat = load_catalogue(spec_dir) if spec_dir is not None else load_catalogue()
    suite.errors.extend(cat.errors)
    wanted = _wanted(areas, patterns) if selecting else None
    seen: dict[str, Case] = {}
    known, clause_editions = set(cat.clauses), {cid: c.editions for cid, c in cat.clauses.items()}
    held: dict[str, list[str]] = {}
    for path in scenario_files(scenarios_dir, suite.errors):
        if selecting and not _must_read(path, areas, patterns, suite.ids):
            continue
        cases, errors = load_file(path, known_clauses=known, wanted=wanted, clause_editions=clause_editions,
                                  refused=cat.refused, held=held)
        suite.errors.extend(errors)
        _add_cases(suite, cases, retired, seen)
    if held:  # right after the catalogue's own errors, which say why
        suite.errors.insert(len(errs) + len(cat.errors), held_error(str(spec_dir or "conformance/spec"), held))
    suite.ids.update(seen)
    return suite


def _wanted(areas: list[str] | None, patterns: list[str] | None) -> Wanted:
    def wanted(area: str, raw: Any) -> bool:
        cid = raw.get("id") if isinstance(raw, dict) else None
        return isinstance(cid, str) and selected(cid, area, areas=areas, patterns=patterns)

    return wanted


def _must_read(path: Path, areas: list[str] | None, patterns: list[str] | None, ids: set[str]) -> bool:
    """Whether a selection must read ``path``; the ids scanned in it join ``ids``. A file whose
    scan finds no id is read when its area is selected, so that its own errors are reported."""
    found = scan_ids(path)
    ids.update(found)
    area = path.parent.name
    return any(selected(cid, area, areas=areas, patterns=patterns) for cid in found) if found \
        else selected("", area, areas=areas)


def _add_cases(suite: Suite, cases: list[Case], retired: set[str], seen: dict[str, Case]) -> None:
    """Add one file's cases to ``suite``, refusing an id already ``seen`` (naming where) or retired."""
    for case in cases:
        if case.id in seen:
            other = seen[case.id]
            suite.errors.append(FileError(case.file, case.line, case.column, "id",
                                          f"case id {case.id!r} is also used at {other.file}:{other.line}"))
        elif case.id in retired:
            suite.errors.append(FileError(case.file, case.line, case.column, "id",
                                          f"case id {case.id!r} is retired (ids.yaml) and may not be reused"))
        else:
            seen[case.id] = case
            suite.cases.append(case)


def selected(case_id: str, area: str, *, areas: list[str] | None = None, patterns: list[str] | None = None) -> bool:
    """Whether an id of ``area`` is in the given areas (any when none) and matches one of the glob
    ``patterns`` (any when none)."""
    return (not areas or area in areas) and (not patterns or any(fnmatch.fnmatchcase(case_id, p) for p in patterns))


def select(items, *, areas=None, patterns=None, edition: str | None = None) -> list:
    """The items (cases, invariants, seeded faults: anything with ``id`` and ``area``) in the
    given areas whose id matches any of the glob ``patterns`` (all when none), in their order.
    With ``edition``, only the cases judged in a run of that edition (an item without
    ``editions`` always is)."""
    return [item for item in items if selected(item.id, item.area, areas=areas, patterns=patterns)
            and holds(getattr(item, "editions", None), item.area, edition)]
