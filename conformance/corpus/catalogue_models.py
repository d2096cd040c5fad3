"""The pydantic models of a clause file (``conformance/spec/<part>.yaml``): what
:func:`conformance.corpus.catalogue.load_catalogue` checks each file against, and what the published
``catalogue.schema.json`` is generated from. Imported only when a catalogue is checked (not when it
comes from the parse cache).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from conformance.corpus.areas import AREAS
from conformance.corpus.collations import COLLATIONS
from conformance.judge.facets import FACETS

FACET_NAMES = tuple(FACETS)
COLLATION_NAMES = tuple(COLLATIONS)


class Clause(BaseModel):
    """One normative rule."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^(ENV|PROF|PI)(-[A-Z0-9]+)+$")
    level: Literal["MUST", "SHOULD", "MAY"]
    statement: str = Field(min_length=1)
    source: str = Field(min_length=1)
    refusal: bool = False
    decision: bool = False
    collation: Literal[COLLATION_NAMES] | None = None  # type: ignore[valid-type]
    check: Literal["case", "manual"] = "case"
    note: str | None = None
    editions: list[str] | None = Field(default=None, min_length=1)
    facets: list[Literal[FACET_NAMES]] | None = Field(default=None, min_length=1)  # type: ignore[valid-type]
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
