"""The project's spec catalogue: loads every normative rule of the three areas, one clause each, from
``conformance/spec/<part>.yaml`` files (``{area, clauses: [...]}``), and checks what cites them."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from conformance.corpus import yamlcache
from conformance.corpus.areas import AREAS, CLAUSE_PREFIX, KIT_AREA, SCENARIO_AREAS  # noqa: F401  (named here too)
from conformance.corpus.editions import of_area
from conformance.output.files import shown_path
from conformance.corpus.public import outside_pointer
from conformance.corpus.yamlio import FileError, SuiteFileError, load_with_positions, read_bytes, validation_errors

SPEC_DIR = Path(__file__).resolve().parent.parent / "spec"

PREFIX = CLAUSE_PREFIX


@dataclass
class Clause:
    """One normative rule of the loaded catalogue, as checked by
    :class:`conformance.corpus.catalogue_models.Clause`; ``area`` and ``file`` (its shown path) are
    where it is declared.

    ``id`` is stable (``ENV-``, ``PROF-`` or ``PI-`` prefix); ``level`` is MUST, SHOULD or MAY;
    ``statement`` is one line in the project's own words. ``source`` names public documents and
    their sections, and the decision clauses the clause relies on, by id (PROF-SOURCE-PUBLIC); it
    never points at a file outside the repository. Flags: ``refusal`` (the clause forbids
    something, so coverage also needs a case that shows the refusal), ``decision`` (the public
    sources are silent or leave the rule open; ``note`` says why the project chose this) and
    ``collation`` (the clause orders text, and this names how it compares it: one of
    :data:`conformance.corpus.collations.COLLATIONS`; its answer must not change with the
    machine's locale, so the locale check of ``pi-conformance smoke`` and ``run --locales`` repeats
    its cases under other locales). ``check`` is ``case`` (the default: cases check it) or
    ``manual`` (no program can check it; ``note`` says why and what a reader checks).
    ``editions``: the editions of its area the clause holds for (``conformance.corpus.editions``;
    every edition of the area when absent). ``facets``: the facets (:mod:`conformance.judge.facets`,
    output fields no clause defines in general) that this clause decides, so that a case citing it
    compares them whatever the implementation declares."""

    id: str
    level: str
    statement: str
    source: str
    refusal: bool = False
    decision: bool = False
    collation: str | None = None
    check: str = "case"
    note: str | None = None
    editions: list[str] | None = None
    facets: list[str] | None = None
    area: str = ""
    file: str = ""


class Refused(set):
    """The ids of :attr:`Catalogue.refused`. When a catalogue file could not be read at all (a
    FIFO, a device, a file past the bound), the ids it declares are not known: then every id the
    catalogue does not hold (:attr:`holding`) counts as refused too, so that the cases citing them
    are held back in one error instead of one error each."""

    holding: dict | None = None

    def __contains__(self, cid: object) -> bool:
        return set.__contains__(self, cid) or (self.holding is not None and cid not in self.holding)


@dataclass
class Catalogue:
    """All clauses by id, in file order, with the errors met while loading; ``refused``: the ids
    of the clauses declared but not loaded because of one of those errors (a bad clause, or every
    clause of a file that does not load), so that what cites them is not reported as citing an
    unknown clause as well."""

    clauses: dict[str, Clause] = field(default_factory=dict)
    errors: list[FileError] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    refused: Refused = field(default_factory=Refused)

    def cited_by(self, cid: str) -> list[str]:
        """Ids of the clauses whose ``source`` cites clause ``cid``, in file order."""
        return [other for other, clause in self.clauses.items() if cid in _cited_set(clause.source)]


_CLAUSE_ID = re.compile(r"\b(?:ENV|PROF|PI)(?:-[A-Z0-9]+)+\b")


def cited_ids(source: str) -> list[str]:
    """The clause ids a ``source`` cites (the decision clauses it relies on), in order."""
    return _CLAUSE_ID.findall(source)


@functools.lru_cache(maxsize=4096)
def _cited_set(source: str) -> frozenset[str]:
    """:func:`cited_ids` of ``source`` as a set, read once per text: a page asks every clause
    which clauses cite it, which read every source once per clause."""
    return frozenset(cited_ids(source))


def load_catalogue(spec_dir: Path = SPEC_DIR) -> Catalogue:
    """Load every ``*.yaml`` under ``spec_dir``. Bad files are reported, the others kept.

    A catalogue without errors is kept in the parse cache (:mod:`conformance.corpus.yamlcache`) under a
    key made of every file's name and text and of the checking code (:func:`_checker_identity`),
    so that the next load of the same files builds no model; one with errors is checked every
    time, so each error is reported with its file and line.
    """
    paths = sorted(spec_dir.glob("*.yaml"))
    shown = [shown_path(path) for path in paths]
    key = _catalogue_key(paths)
    found = yamlcache.get(key, lambda entry: _cached(entry, shown)) if key is not None else None
    if found is not None:
        return found
    cat = _checked(paths, shown)
    if key is not None and not cat.errors:
        index = {name: i for i, name in enumerate(shown)}
        yamlcache.put(key, json.dumps([[index[c.file], cat.lines[c.id], {**asdict(c), "file": None}]
                                       for c in cat.clauses.values()]))
    return cat


CHECKER_SOURCES = ("__init__.py", "corpus/catalogue.py", "corpus/catalogue_models.py", "corpus/areas.py",
                   "corpus/collations.py",
                   "corpus/editions.py", "judge/facets.py", "judge/optional.py", "corpus/public.py",
                   "corpus/yamlio.py")
"""The modules (of this package) whose code decides what a clause file loads as."""


def _checker_identity() -> str:
    """The digest of the code that checks a clause file: :data:`CHECKER_SOURCES` and pydantic's
    version."""
    package = Path(__file__).resolve().parent.parent
    return yamlcache.sources_digest(tuple(package / name for name in CHECKER_SOURCES), ("pydantic", "version.py"))


def _catalogue_key(paths: list[Path]) -> str | None:
    """The cache key of the catalogue made of ``paths``: every file's name and text and the
    checking code; ``None`` when a file cannot be read as UTF-8 (the check reports it)."""
    parts = [f"checked clause catalogue\n{_checker_identity()}\n"]
    for path in paths:
        try:
            text = read_bytes(path).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        parts.append(f"{len(path.name)}:{path.name}{len(text)}:{text}")
    return yamlcache.key_of("".join(parts))


_CLAUSE_SHAPE = {"id": str, "level": str, "statement": str, "source": str, "refusal": bool, "decision": bool,
                 "collation": (None, str), "check": str, "note": (str, None), "editions": (None, [str]),
                 "facets": (None, [str]), "area": str,
                 "file": None}
"""A clause as a cache entry keeps it (its ``file`` left out: the shown path is today's)."""


def _cached(entry: object, shown: list[str]) -> Catalogue | None:
    """The catalogue a cache entry holds (``[file index, line, clause fields]`` per clause), with
    today's shown paths; ``None`` when the entry is absent or not of that shape."""
    if not yamlcache.matches(entry, [[object]]):
        return None
    cat = Catalogue()
    try:
        for index, line, data in entry:
            if type(index) is not int or not 0 <= index < len(shown) or type(line) is not int or \
                    not yamlcache.matches(data, _CLAUSE_SHAPE):
                return None
            clause = Clause(**{**data, "file": shown[index]})
            cat.clauses[clause.id] = clause
            cat.lines[clause.id] = line
    except (TypeError, ValueError, IndexError):
        return None
    return cat


def _checked(paths: list[Path], shown_paths: list[str]) -> Catalogue:
    """Check every clause file with the pydantic models of :mod:`conformance.corpus.catalogue_models`."""
    from pydantic import ValidationError

    from conformance.corpus.catalogue_models import ClauseFile

    cat = Catalogue()
    for path, shown in zip(paths, shown_paths):
        try:
            data, positions = load_with_positions(path, shown)
            parsed = ClauseFile.model_validate(data)
        except SuiteFileError as exc:
            cat.errors.extend(exc.errors)
            declared = _declared_ids(path)
            if declared is None:
                cat.refused.holding = cat.clauses
            cat.refused.update(declared or ())
            continue
        except ValidationError as exc:
            cat.errors.extend(validation_errors(exc, shown, positions))
            cat.refused.update(_declared_ids(path, data) or ())
            continue
        for i, clause in enumerate(parsed.clauses):
            line, col = positions.get(("clauses", i), (0, 0))
            outside = outside_pointer(clause.source)
            if outside is not None:
                sline, scol = positions.get(("clauses", i, "source"), (line, col))
                cat.errors.append(FileError(shown, sline, scol, f"clauses[{i}].source",
                                            f"{outside!r} points outside the repository: name the public "
                                            "document and section, and cite decision clauses by id"))
                cat.refused.add(clause.id)
                continue
            if not clause.id.startswith(PREFIX[parsed.area]):
                cat.errors.append(FileError(shown, line, col, f"clauses[{i}].id",
                                            f"{clause.id} does not start with {PREFIX[parsed.area]}"))
                cat.refused.add(clause.id)
                continue
            if clause.id in cat.clauses:
                cat.errors.append(FileError(shown, line, col, f"clauses[{i}].id",
                                            f"clause {clause.id} is also declared in {cat.clauses[clause.id].file}"))
                continue
            foreign = [name for name in clause.editions or [] if name not in of_area(parsed.area)]
            if foreign:
                eline, ecol = positions.get(("clauses", i, "editions"), (line, col))
                cat.errors.append(FileError(shown, eline, ecol, f"clauses[{i}].editions",
                                            f"{', '.join(foreign)} is not an edition of area {parsed.area!r} "
                                            f"(its editions: {', '.join(of_area(parsed.area))})"))
                cat.refused.add(clause.id)
                continue
            cat.lines[clause.id] = line
            cat.clauses[clause.id] = Clause(**{**{f.name: getattr(clause, f.name) for f in fields(Clause)},
                                               "area": parsed.area, "file": shown})
    _check_citations(cat)
    return cat


def _check_citations(cat: Catalogue) -> None:
    """Every clause id a source cites is a decision clause of the catalogue."""
    for clause in cat.clauses.values():
        for cited in cited_ids(clause.source):
            if cited in cat.refused:
                continue  # its own error is reported
            target = cat.clauses.get(cited)
            problem = ("cites unknown clause " + cited if target is None else
                       None if target.decision else f"cites {cited}, which is not a decision clause")
            if problem:
                cat.errors.append(FileError(clause.file, cat.lines[clause.id], 0, f"{clause.id}.source", problem))


_DECLARED_ID = re.compile(r"(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)[\"']?id[\"']?[ \t]*:[ \t]*[\"']?([A-Z][A-Z0-9-]*)",
                          re.MULTILINE)


def _declared_ids(path: Path, data: object = None) -> set[str] | None:
    """The clause ids a catalogue file that does not load declares: the string ``id`` of every
    clause of its ``data`` (when it was read as YAML), and every value of an ``id`` key in its text,
    a block or a flow mapping's (so a file with a YAML error still names them); ``None`` when it
    cannot be read as :func:`~conformance.corpus.yamlio.read_bytes` reads (a FIFO, a device, a
    file past the bound)."""
    clauses = data.get("clauses") if isinstance(data, dict) else None
    found = {c["id"] for c in clauses if isinstance(c, dict) and isinstance(c.get("id"), str)} \
        if isinstance(clauses, list) else set()
    try:
        return found | set(_DECLARED_ID.findall(read_bytes(path).decode("utf-8", errors="replace")))
    except OSError:
        return None if data is None else found


def describe_clauses(catalogue: Catalogue, ids: list[str], *, indent: str = "  ") -> str:
    """The clauses ``ids`` as a person reads them next to a case: one paragraph each,
    ``ID (LEVEL[, decision]): statement``, the statement folded to one line. An id the catalogue
    does not hold is named as unknown."""
    lines = []
    for cid in ids:
        clause = catalogue.clauses.get(cid)
        if clause is None:
            lines.append(f"{indent}{cid}: (not in the catalogue)")
            continue
        marks = clause.level + (", decision" if clause.decision else "")
        lines.append(f"{indent}{cid} ({marks}): {' '.join(clause.statement.split())}")
    return "\n".join(lines)


def collation_clauses(catalogue: Catalogue) -> set[str]:
    """The ids of the clauses that name a ``collation``: their cases make the locale check."""
    return {cid for cid, clause in catalogue.clauses.items() if clause.collation}
