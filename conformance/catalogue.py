"""The project's spec catalogue: every normative rule of the three areas as a clause.

Files ``conformance/spec/<part>.yaml`` hold ``{area, clauses: [...]}``; each clause has a stable
``id`` (``ENV-``, ``PROF-`` or ``PI-`` prefix), a ``level`` (MUST/SHOULD/MAY), a one-line
``statement`` in the project's own words, its ``source`` section, and flags ``refusal`` (the clause
forbids something, so coverage also needs a case that shows the refusal) and ``decision`` (the
seeds and notes are silent; ``note`` says why the project chose this). ``check: manual`` marks a
clause no seeded fault can reach through the protocol; ``check_reason`` says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from conformance.yamlio import FileError, SuiteFileError, load_with_positions, validation_errors

SPEC_DIR = Path(__file__).resolve().parent / "spec"
AREAS = ("envelope", "profiles", "pi")
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
    note: str | None = None
    check: Literal["manual"] | None = None
    check_reason: str | None = None
    area: str = ""
    file: str = ""


    @model_validator(mode="after")
    def _manual_has_reason(self) -> "Clause":
        if self.check == "manual" and not (self.check_reason or "").strip():
            raise ValueError("check: manual needs a check_reason saying why no seeded fault can reach it")
        return self


class ClauseFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    area: Literal["envelope", "profiles", "pi"]
    title: str | None = None
    clauses: list[Clause]


@dataclass
class Catalogue:
    """All clauses by id, in file order, with the errors met while loading."""

    clauses: dict[str, Clause] = field(default_factory=dict)
    errors: list[FileError] = field(default_factory=list)


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
            continue
        except ValidationError as exc:
            cat.errors.extend(validation_errors(exc, shown, positions))
            continue
        for i, clause in enumerate(parsed.clauses):
            line, col = positions.get(("clauses", i), (0, 0))
            if not clause.id.startswith(PREFIX[parsed.area]):
                cat.errors.append(FileError(shown, line, col, f"clauses[{i}].id",
                                            f"{clause.id} does not start with {PREFIX[parsed.area]}"))
                continue
            if clause.id in cat.clauses:
                cat.errors.append(FileError(shown, line, col, f"clauses[{i}].id",
                                            f"clause {clause.id} is also declared in {cat.clauses[clause.id].file}"))
                continue
            clause.area = parsed.area
            clause.file = shown
            cat.clauses[clause.id] = clause
    return cat


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
