"""The project's spec catalogue: every normative rule of the three areas as a clause.

Files ``conformance/spec/<part>.yaml`` hold ``{area, clauses: [...]}``; each clause has a stable
``id`` (``ENV-``, ``PROF-`` or ``PI-`` prefix), a ``level`` (MUST/SHOULD/MAY), a one-line
``statement`` in the project's own words, its ``source``, and flags ``refusal`` (the clause
forbids something, so coverage also needs a case that shows the refusal), ``decision`` (the
public sources are silent or leave the rule open; ``note`` says why the project chose this) and
``collation`` (the clause orders or compares text, so its answer must not change with the
machine's locale: the locale check of ``pi-conformance smoke`` and ``run --locales`` repeats its
cases under other locales), and ``check``: ``case`` (the default: cases check it) or ``manual``
(no program can check it; ``note`` says why and what a reader checks), and ``editions``: the
editions of its area the clause holds for (``conformance.editions``; every edition of the area
when absent).

A ``source`` names public documents and their sections, and the decision clauses the clause relies
on, by id (PROF-SOURCE-PUBLIC); it never points at a file outside the repository.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from conformance.areas import AREAS, KIT_AREA, SCENARIO_AREAS  # noqa: F401  (named here too)
from conformance.editions import of_area
from conformance.yamlio import FileError, SuiteFileError, load_with_positions, validation_errors

SPEC_DIR = Path(__file__).resolve().parent / "spec"

PREFIX = {"envelope": "ENV-", "profiles": "PROF-", "pi": "PI-"}


class Clause(BaseModel):
    """One normative rule."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^(ENV|PROF|PI)(-[A-Z0-9]+)+$")
    level: Literal["MUST", "SHOULD", "MAY"]
    statement: str = Field(min_length=1)
    source: str = Field(min_length=1)
    refusal: bool = False
    decision: bool = False
    collation: bool = False
    check: Literal["case", "manual"] = "case"
    note: str | None = None
    editions: list[str] | None = Field(default=None, min_length=1)
    area: str = ""
    file: str = ""


    @model_validator(mode="after")
    def _manual_has_reason(self) -> "Clause":
        if self.check == "manual" and not (self.note or "").strip():
            raise ValueError("a clause with check: manual needs a note saying why no case can check it")
        return self


class ClauseFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    area: Literal[AREAS]  # type: ignore[valid-type]
    title: str | None = None
    clauses: list[Clause]


@dataclass
class Catalogue:
    """All clauses by id, in file order, with the errors met while loading; ``refused``: the ids
    of the clauses declared but not loaded because of one of those errors (a bad clause, or every
    clause of a file that does not load), so that what cites them is not reported as citing an
    unknown clause as well."""

    clauses: dict[str, Clause] = field(default_factory=dict)
    errors: list[FileError] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)

    def cited_by(self, cid: str) -> list[str]:
        """Ids of the clauses whose ``source`` cites clause ``cid``, in file order."""
        return [other for other, clause in self.clauses.items() if cid in cited_ids(clause.source)]


_OUTSIDE = re.compile(r"\bseeds?\s*\d+|\bnotes?\s+N\d|\.\./shared|\bshared/spec\b|/work/", re.I)
_CLAUSE_ID = re.compile(r"\b(?:ENV|PROF|PI)(?:-[A-Z0-9]+)+\b")


def outside_pointer(source: str) -> str | None:
    """The part of a clause's ``source`` that points outside the repository (a seed file, a
    numbered note, a path into a shared folder), or ``None``. Implements PROF-SOURCE-PUBLIC."""
    m = _OUTSIDE.search(source)
    return m.group(0) if m else None


def cited_ids(source: str) -> list[str]:
    """The clause ids a ``source`` cites (the decision clauses it relies on), in order."""
    return _CLAUSE_ID.findall(source)


def load_catalogue(spec_dir: Path = SPEC_DIR) -> Catalogue:
    """Load every ``*.yaml`` under ``spec_dir``. Bad files are reported, the others kept."""
    cat = Catalogue()
    for path in sorted(spec_dir.glob("*.yaml")):
        shown = _display(path)
        try:
            data, positions = load_with_positions(path, shown)
            parsed = ClauseFile.model_validate(data)
        except SuiteFileError as exc:
            cat.errors.extend(exc.errors)
            cat.refused.update(_declared_ids(path))
            continue
        except ValidationError as exc:
            cat.errors.extend(validation_errors(exc, shown, positions))
            cat.refused.update(_declared_ids(path))
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
            clause.area = parsed.area
            clause.file = shown
            cat.lines[clause.id] = line
            cat.clauses[clause.id] = clause
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


_DECLARED_ID = re.compile(r"^[ \t]*(?:-[ \t]+)?id[ \t]*:[ \t]*[\"']?([A-Z][A-Z0-9-]*)", re.MULTILINE)


def _declared_ids(path: Path) -> set[str]:
    """The clause ids a catalogue file that does not load declares on its ``id:`` lines (read as
    text, so a file with a YAML error still names them); none when it cannot be read."""
    try:
        return set(_DECLARED_ID.findall(path.read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return set()


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


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
    """The ids of the clauses flagged ``collation: true``: their cases make the locale check."""
    return {cid for cid, clause in catalogue.clauses.items() if clause.collation}
