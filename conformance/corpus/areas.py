"""The areas of the specification: plain names, importing nothing, so that the command line and
every module can name them without loading the clause catalogue."""

from __future__ import annotations

AREAS = ("envelope", "profiles", "pi")
"""The areas of the specification, in the order reports list them: the one list the kit has."""

KIT_AREA = "kit"
"""The area of the kit's own scenarios (they test the kit, and cite no clause of the catalogue)."""

SCENARIO_AREAS = AREAS + (KIT_AREA,)
"""The areas a scenario file may declare."""

CLAUSE_PREFIX = {"envelope": "ENV-", "profiles": "PROF-", "pi": "PI-"}
"""The prefix of every clause id of an area: the catalogue refuses a clause declared under
another area's prefix, and a case may cite only clauses of its own area's prefix."""
