"""Scenario files (``conformance/scenarios/<area>/<topic>.yaml``, format in
``conformance/AUTHORING.md``): the loader and the loaded cases. A bad file or case never hides the
others: each problem is one error naming file, line, column and field."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from conformance.corpus import yamlcache
from conformance.corpus.catalogue import SCENARIO_AREAS, load_catalogue
from conformance.corpus.editions import default_of, holds
from conformance.output.files import shown_path
from conformance.corpus.idscan import parsed_ids, scanned_ids
from conformance.judge.normalise import names as normaliser_names
from conformance.corpus.trees import ENTRY_FIELDS, TreeEntry
from conformance.corpus.yamlio import FileError, SuiteFileError, load_text_with_positions, load_with_positions, read_text
from conformance.corpus.yamlio import read_bytes as yamlio_read_bytes

SCENARIOS_DIR = Path(__file__).resolve().parent.parent / "scenarios"
CAPABILITIES = ("symlinks",)


@dataclass
class Case:
    """A loaded, validated case.

    Attributes:
        id, title, clauses, tags, op, input, error_code, normalise, requires: as in the file
            (``op`` resolved from the file's default, ``error_code`` from ``error.code``).
        tree: the validated tree entries, or ``None``.
        area: the file's area. file, line: where the case is written.
        editions: the editions of its area the case holds for (declared, else those its clauses
            share; ``conformance.corpus.editions``), or ``None`` for a case of an area without editions.
        facets: the facets its clauses decide (their catalogue ``facets``, of every edition's
            citations): compared whatever the implementation declares (:mod:`conformance.judge.facets`).
        clauses_at: its citations by edition (format 2, keys ``clauses@EDITION``): edition to the
            clauses it cites only when judged in that edition (:meth:`cited`).
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
    facets: tuple[str, ...] = ()
    clauses_at: dict[str, list[str]] = field(default_factory=dict)

    def cited(self, edition: str | None) -> list[str]:
        """The clauses the case cites when judged by ``edition`` (``None``: its area's default):
        ``clauses`` and, after them, those of ``clauses@EDITION``."""
        name = edition if edition is not None else default_of(self.area)
        return list(self.clauses) + list(self.clauses_at.get(name or "", ()))

    def every_citation(self) -> list[str]:
        """Every clause the case cites in any edition: ``clauses``, then each edition's own."""
        return list(self.clauses) + [cid for ids in self.clauses_at.values() for cid in ids]


def citations(case: Any, edition: str | None = None, *, every: bool = False) -> list[str]:
    """The clauses ``case`` cites when judged by ``edition`` (:meth:`Case.cited`), or in any
    edition with ``every`` (:meth:`Case.every_citation`). An object with ``clauses`` only (a
    case made by a test or a tool) cites those."""
    if not hasattr(case, "cited"):
        return list(case.clauses)
    return case.every_citation() if every else case.cited(edition)


@dataclass
class Suite:
    """The loaded cases (in file order) and every error met.

    Attributes:
        cases: the good cases read (all of them, or those of a selection).
        errors: one :class:`~conformance.corpus.yamlio.FileError` per problem in the files read.
        ids: every case id of the whole suite, even when only a selection was read (then taken
            from a scan of the unread files, see :func:`scan_ids`).
        complete: whether every scenario file was read, so that suite-wide checks (orphaned
            goldens) can be judged.
        unknown: the files left unread whose case ids could not be known (they do not parse):
            ``ids`` may then lack theirs.
    """

    cases: list[Case] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    complete: bool = True
    unknown: list[str] = field(default_factory=list)

    def by_id(self) -> dict[str, Case]:
        return {c.id: c for c in self.cases}

    def golden_ids(self) -> set[str] | None:
        """The ids whose goldens are not orphaned: the cases that expect a golden (those without
        an expected error) when every file was read; every id written in the suite otherwise; or
        ``None`` when a file left unread has ids that are not known, so that no golden can be
        judged orphaned."""
        if self.unknown:
            return None
        return {c.id for c in self.cases if c.error_code is None} if self.complete else set(self.ids)


def retired_ids(scenarios_dir: Path) -> tuple[set[str], list[FileError]]:
    """Ids listed in ``ids.yaml`` (``retired: [{id, reason, replacedBy?}]``): never to be reused."""
    path = scenarios_dir / "ids.yaml"
    if not path.exists():
        return set(), []
    shown = shown_path(path)
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


Wanted = Callable[[str, "str | None"], bool]
"""A selection of cases: ``wanted(area, case_id)`` (``case_id`` ``None`` for a case without a
string id)."""


def load_file(path: Path, *, known_clauses: set[str] | None = None, wanted: Wanted | None = None,
              clause_editions: dict[str, list[str] | None] | None = None,
              context: str | None = None, refused: set[str] | None = None,
              held: dict[str, list[str]] | None = None) -> tuple[list[Case], list[FileError]]:
    """Load one scenario file: the good cases and the errors (with file, line, column and field).

    ``wanted`` (when given) picks the cases returned (see below for those checked).
    ``known_clauses``: the clause ids a case may cite (unchecked when ``None``).
    ``clause_editions`` (clause id: its editions, ``None`` for all) gives each case the editions
    its clauses share; a case whose clauses share none, or that declares an edition its clauses
    do not hold for, is an error. ``context``: :func:`check_context` of these (computed when not
    given). A case citing one of the clauses the catalogue ``refused`` (its own error reported) is
    not loaded: its id is added to ``held`` under that clause, or without ``held`` the file gets
    one error naming those cases. Raises nothing: an unreadable file is one error.

    The cases come from the parse cache (:mod:`conformance.corpus.yamlcache`) when it holds this
    file (its text and folder) checked in the same context by the same code
    (:func:`checker_identity`); such a load builds no model. Otherwise every case of the file is checked, and a file without an error (and
    without a case held back) is stored there (a selection then takes its cases); in a file with
    an error, only the ``wanted`` cases are checked and reported, as a selection reports only its
    own.
    """
    shown = shown_path(path)
    try:
        text = read_text(path, shown)
    except SuiteFileError as exc:
        return [], exc.errors
    editions = clause_editions or {}
    key = yamlcache.key_of(f"checked scenario file\n{checker_identity()}\n"
                           f"{context or check_context(known_clauses, editions)}\n{path.parent.name}\n{text}")
    records = yamlcache.get(key, _records)
    if records is None:
        try:
            data, positions = load_text_with_positions(text, shown)
        except SuiteFileError as exc:
            return [], exc.errors
        from conformance.corpus.scenario_checks import check_file

        def check(chosen: Wanted | None) -> tuple[list[dict], list[FileError], dict[str, list[str]]]:
            kept: dict[str, list[str]] = {}
            found, problems = check_file(data, positions, shown, path.parent.name, known_clauses=known_clauses,
                                         clause_editions=editions, wanted=chosen, refused=set() if refused is None else refused,
                                         held=kept)
            return found, problems, kept

        records, errors, kept = check(None)
        if errors and wanted is not None:
            records, errors, kept = check(wanted)
        if held is not None:
            for cid, ids in kept.items():
                held.setdefault(cid, []).extend(ids)
        elif kept:
            errors = [*errors, held_error(shown, kept)]
        if not errors and not kept:
            yamlcache.put(key, json.dumps(records))
    else:
        errors = []
    return [_case(r, shown) for r in records if wanted is None or wanted(r["area"], r["id"])], errors


def held_error(where: str, held: dict[str, list[str]]) -> FileError:
    """One error for every case not loaded because it cites a clause the catalogue refused
    (``held``: clause id to case ids), reported after the catalogue's own errors."""
    ids = sorted({cid for cases in held.values() for cid in cases})
    clauses = sorted(held)
    return FileError(where, 0, 0, "", f"{len(ids)} case(s) not loaded ({', '.join(ids[:3])}{', ...' * (len(ids) > 3)}): "
                                      f"they cite {', '.join(clauses[:5])}{', ...' * (len(clauses) > 5)}, which the "
                                      "catalogue refused; fix its error(s) above first")


CHECKER_SOURCES = ("__init__.py", "corpus/areas.py", "corpus/cases.py", "corpus/idscan.py",
                   "corpus/scenario_checks.py", "corpus/trees.py", "corpus/editions.py", "judge/normalise.py",
                   "corpus/public.py", "corpus/yamlio.py", "operations/*.py")
"""The modules (of this package; a glob names several) whose code decides what a scenario file
loads as, and which case ids a selection finds in it."""


@lru_cache(maxsize=1)
def checker_identity() -> str:
    """The digest of the code that checks a scenario file: :data:`CHECKER_SOURCES` and
    pydantic's version."""
    package = Path(__file__).resolve().parent.parent
    paths = tuple(path for name in CHECKER_SOURCES for path in sorted(package.glob(name)))
    return yamlcache.sources_digest(paths, ("pydantic", "version.py"))


def check_context(known_clauses: set[str] | None, clause_editions: dict[str, list[str] | None]) -> str:
    """The digest of what a file's check reads besides the file and the code: the clauses a case
    may cite and their editions, the names of the normalisers and of the operations declared
    beyond :mod:`conformance.operations.index` (declared while the program runs)."""
    from conformance.operations.index import OPERATIONS

    base = sys.modules.get("conformance.operations.base")
    extra_ops = sorted(set(base.declared()) - set(OPERATIONS)) if base is not None else []
    data = [None if known_clauses is None else sorted(known_clauses), sorted(clause_editions.items()),
            sorted(normaliser_names()), extra_ops]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


_TREE_ENTRY_SHAPE = {"*": (str, int, bool)}
_TREE_FIELDS = frozenset(ENTRY_FIELDS)
_RECORD_SHAPE = {"id": str, "title": str, "clauses": [str], "tags": [str], "op": str, "input": {"*": object},
                 "tree": (None, {"*": _TREE_ENTRY_SHAPE}), "error_code": (str, None), "normalise": [str],
                 "requires": [str], "area": str, "line": int, "column": int, "editions": (None, [str]),
                 "clauses_at": {"*": [str]}}
"""A checked case as a cache entry keeps it (:mod:`conformance.corpus.scenario_checks`)."""


def _records(entry: Any) -> list[dict] | None:
    """The checked records a cache entry holds, or ``None`` when it is not a list of records of
    that shape (a tree entry of another field included)."""
    if not yamlcache.matches(entry, [_RECORD_SHAPE]):
        return None
    if any(r["tree"] and any(not set(v) <= _TREE_FIELDS for v in r["tree"].values()) for r in entry):
        return None
    return entry


def _case(record: dict, shown: str) -> Case:
    """The :class:`Case` of a checked record (:mod:`conformance.corpus.scenario_checks`) of file ``shown``."""
    tree = record["tree"]
    editions = record["editions"]
    return Case(**{**record, "file": shown, "tree": None if tree is None else {k: TreeEntry(**v) for k, v in tree.items()},
                   "editions": None if editions is None else tuple(editions)})


def scan_ids(path: Path) -> list[str] | None:
    """The case ids of a scenario file in file order, as the loader reads them: found without
    parsing in an ordinary file, by a parse of the file (the C loader, through the parse cache)
    when one of its lines is not of a form :func:`~conformance.corpus.idscan.scanned_ids` is sure of.
    ``None`` when they cannot be known: the file cannot be read or does not parse. The ids found
    are kept in the parse cache under the file's text and the code that reads them
    (:func:`checker_identity`), so an edited file or scanner never finds an old entry."""
    try:
        text = yamlio_read_bytes(path).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    key = yamlcache.key_of(f"case ids of a scenario file\n{checker_identity()}\n{text}")
    found = yamlcache.get(key, lambda entry: entry if yamlcache.matches(entry, [str]) else None)
    if found is not None:
        return found
    found = scanned_ids(text)
    if found is None:
        found = parsed_ids(text)
    if found is not None:
        yamlcache.put(key, json.dumps(found))
    return found


def scan_all_ids(paths: list[Path]) -> dict[Path, list[str] | None]:
    """:func:`scan_ids` of each of ``paths``, kept together in one parse-cache entry too: named by
    every file's path, length and bytes and the code that reads them (:func:`checker_identity`),
    so that a selection reads one entry instead of one per file, and an edited, added, removed or
    renamed file, or an edited scanner, never finds an old one. Without it (or with a file that
    cannot be read, or whose ids cannot be known) each file is scanned as :func:`scan_ids` does."""
    key = yamlcache.hasher(f"case ids of the scenario files\n{checker_identity()}\n")
    for path in paths:
        try:
            data = yamlio_read_bytes(path)
        except OSError:
            return {path: scan_ids(path) for path in paths}
        key.update(f"{path.parent.name}/{path.name}:{len(data)}:".encode() + data)
    name = key.hexdigest()
    found = yamlcache.get(name, lambda entry: entry if yamlcache.matches(entry, [[str]]) else None)
    if found is not None and len(found) == len(paths):
        return dict(zip(paths, found))
    scanned = {path: scan_ids(path) for path in paths}
    if None not in scanned.values():  # a file whose ids cannot be known is scanned again each time
        yamlcache.put(name, json.dumps(list(scanned.values())))
    return scanned


def scenario_files(scenarios_dir: Path, errors: list[FileError]) -> list[Path]:
    """The scenario files under ``scenarios_dir`` (``<area>/*.yaml``), in name order. A YAML file
    anywhere else under it (another suffix, another folder, a subfolder of an area, the folder
    itself but for ``ids.yaml``) is reported in ``errors`` and left out. An area's folder that is
    a symbolic link to a folder is read through it (a file reached twice is read once:
    :func:`_read_once`)."""
    paths = []
    found = set(scenarios_dir.rglob("*.y*ml"))
    try:  # an area's folder may be a link to a folder, which rglob does not enter
        found.update(p for entry in scenarios_dir.iterdir() if entry.is_symlink() and entry.is_dir()
                     for p in entry.rglob("*.y*ml"))
    except OSError:
        pass
    for path in sorted(found):
        depth = len(path.relative_to(scenarios_dir).parts)
        if depth == 1 and path.name == "ids.yaml":
            continue
        if depth != 2:
            errors.append(FileError(shown_path(path), 0, 0, "", "scenario files are <area>/<topic>.yaml, directly in an "
                                                              "area's folder; this file is not read"))
        elif path.suffix != ".yaml":
            errors.append(FileError(shown_path(path), 0, 0, "", "scenario files end in .yaml; this file is not read"))
        elif path.parent.name not in SCENARIO_AREAS:
            errors.append(FileError(shown_path(path), 0, 0, "",
                                    f"scenario folders are {', '.join(SCENARIO_AREAS)}; this file is not read"))
        else:
            paths.append(path)
    return _read_once(paths, errors)


def _read_once(paths: list[Path], errors: list[FileError]) -> list[Path]:
    """``paths`` less each that is, through a symbolic link (to the file, or to a folder above it),
    a file another of them already names: reading it again would report each of its cases as a
    duplicate of itself. The file's own path is kept (the first link to it in name order when it
    lies outside); each other one is reported in ``errors``, naming the link and its target."""
    targets: dict[Path, Path] = {}
    for path in paths:
        try:
            targets[path] = path.resolve()
        except (OSError, RuntimeError):  # a loop of links: reading it reports the error
            pass
    first: dict[Path, Path] = {}
    dropped: set[Path] = set()
    # the file's own path first, then links to it, each in name order (the sort is stable)
    for path in sorted(targets, key=lambda path: (path.is_symlink(), Path(os.path.abspath(path)) != targets[path])):
        target = targets[path]
        kept = first.setdefault(target, path)
        if kept is not path:
            dropped.add(path)
            how = "a symbolic link to" if path.is_symlink() else "reached through a linked folder, the same file as"
            through = f", which {shown_path(kept)} already reads" if shown_path(kept) != shown_path(target) else ""
            errors.append(FileError(shown_path(path), 0, 0, "", f"{how} the scenario file {shown_path(target)}{through}; "
                                                                 "a file is read once, so this one is not read"))
    return [path for path in paths if path not in dropped]


def load_suite(scenarios_dir: Path = SCENARIOS_DIR, *, areas: list[str] | None = None,
               patterns: list[str] | None = None, spec_dir: Path | None = None) -> Suite:
    """Load the scenario files under ``scenarios_dir`` (``<area>/*.yaml``).

    Cases are checked across files too: duplicate ids and reuse of retired ids are errors (the
    later case is dropped). The clause ids a case names must exist in the spec catalogue.

    A selection (``areas``; ``patterns``, globs on case ids) is made before parsing: only the
    files of those areas whose ``id:`` lines (:func:`scan_all_ids`) match are read, and only the
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
    context = check_context(known, clause_editions)
    held: dict[str, list[str]] = {}
    paths = scenario_files(scenarios_dir, suite.errors)
    scanned = scan_all_ids(paths) if selecting else {}
    for path in paths:
        if selecting and not _must_read(path, scanned[path], areas, patterns, suite):
            continue
        cases, errors = load_file(path, known_clauses=known, wanted=wanted, clause_editions=clause_editions,
                                  context=context, refused=cat.refused, held=held)
        suite.errors.extend(errors)
        _add_cases(suite, cases, retired, seen)
    decided = {cid: c.facets for cid, c in cat.clauses.items() if c.facets}
    for case in suite.cases:
        case.facets = tuple(sorted({f for cid in case.every_citation() for f in decided.get(cid, ())}))
    if held:  # right after the catalogue's own errors, which say why
        suite.errors.insert(len(errs) + len(cat.errors), held_error(str(spec_dir or "conformance/spec"), held))
    suite.ids.update(seen)
    return suite


def _wanted(areas: list[str] | None, patterns: list[str] | None) -> Wanted:
    def wanted(area: str, cid: str | None) -> bool:
        return cid is not None and selected(cid, area, areas=areas, patterns=patterns)

    return wanted


def _must_read(path: Path, found: list[str] | None, areas: list[str] | None, patterns: list[str] | None,
               suite: Suite) -> bool:
    """Whether a selection must read ``path``, whose scanned ids are ``found`` (:func:`scan_ids`);
    they join ``suite.ids``. A file whose scan finds no id is read when its area is selected, so
    that its own errors are reported; one whose ids cannot be known and that is not read joins
    ``suite.unknown``."""
    area = path.parent.name
    if found:
        suite.ids.update(found)
        return any(selected(cid, area, areas=areas, patterns=patterns) for cid in found)
    if selected("", area, areas=areas):
        return True
    if found is None:
        suite.unknown.append(shown_path(path))
    return False


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
