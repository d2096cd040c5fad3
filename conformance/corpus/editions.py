"""Editions of the specification (PI-DECISION-EDITIONS): each a dated copy of an area's public pages;
which edition judges each area of a run, which cases hold in it, and how a run is labelled with
them. Pure data and lookups: no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Edition:
    """One edition: its ``name`` (``pi-1.6.0``), its ``area``, whether it is the area's
    ``default``, and its ``sources`` (the public documents it consists of, by public name)."""

    name: str
    area: str
    default: bool
    sources: str


EDITIONS: tuple[Edition, ...] = (
    Edition("envelope", "envelope", True,
            "README of the npm package @luan.sh/pi-developer-messages (public repository luan/agents, "
            "folder harnesses/pi/agent/packages/pi-developer-messages)"),
    Edition("profiles", "profiles", True,
            "docs/architecture.md of the public repository Yivas/pi-prompt-profiles"),
    Edition("pi-0.99.4", "pi", True,
            "Pi 0.99.4 docs/message-types.md, docs/models.md, docs/packages.md, docs/prompt-templates.md "
            "(public repository earendil-works/pi)"),
    Edition("pi-1.6.0", "pi", False,
            "Pi 1.6.0 docs/message-types.md, docs/models.md, docs/packages.md, docs/prompt-templates.md "
            "(folder docs/ of the npm package @earendil-works/pi-coding-agent@1.6.0)"),
)
"""Every edition, areas in report order, the default of each area first."""

DEFAULT = "pi-0.99.4"
"""The edition a run judges when ``--edition`` is not given."""


def names() -> list[str]:
    """The names of every edition, in :data:`EDITIONS` order."""
    return [e.name for e in EDITIONS]


def get(name: str) -> Edition:
    """The edition called ``name``. Raises ``ValueError`` naming the known editions."""
    for edition in EDITIONS:
        if edition.name == name:
            return edition
    raise ValueError(f"unknown edition {name!r}; the editions are {', '.join(names())}")


def of_area(area: str) -> list[str]:
    """The names of the editions of ``area`` (none for the kit's own area)."""
    return [e.name for e in EDITIONS if e.area == area]


@lru_cache(maxsize=64)
def default_of(area: str) -> str | None:
    """The name of ``area``'s default edition, or ``None`` for an area without editions."""
    return next((e.name for e in EDITIONS if e.area == area and e.default), None)


@lru_cache(maxsize=64)
def judged(run_edition: str | None, area: str) -> str | None:
    """The edition a case of ``area`` is judged by in a run of ``run_edition`` (``None``: the
    default): that edition when it is one of ``area``'s, else ``area``'s default."""
    edition = get(run_edition or DEFAULT)
    return edition.name if edition.area == area else default_of(area)


def judging(run_edition: str | None, areas) -> dict[str, str]:
    """The edition that judges each of ``areas`` (the areas a run actually ran, in any order) in a
    run of ``run_edition`` (``None``: the default; :func:`judged`), as ``{area: edition}`` in
    :data:`EDITIONS` order; an area without editions (the kit's own) is left out."""
    wanted = set(areas)
    return {e.area: judged(run_edition, e.area) for e in EDITIONS if e.default and e.area in wanted}


def label(editions: dict[str, str]) -> str:
    """How the console and the reports name the editions that judged a run (``{area: edition}``,
    :func:`judging`): ``edition envelope``, ``editions envelope, profiles, pi-0.99.4`` (each
    edition's name says its area; ``pi-conformance editions`` lists them), or ``""`` when no area
    with editions ran. Names only what judged an area that ran: a run of the envelope area is
    not labelled with a Pi edition, nor a whole run with the edition that judged one area."""
    names = list(editions.values())
    return f"edition{'s' if len(names) > 1 else ''} {', '.join(names)}" if names else ""


def check_areas(name: str, areas: list[str] | None) -> None:
    """Refuse an edition given with areas that exclude its own (``--edition envelope --area pi``):
    the run would judge none of the edition's cases yet be labelled with it
    (PI-DECISION-EDITIONS). ``areas``: the selected areas (``None`` or empty: all).

    Raises ``ValueError`` naming the edition, its area and the areas given.
    """
    edition = get(name)
    if areas and edition.area not in areas:
        given = " ".join(f"--area {a}" for a in areas)
        raise ValueError(f"--edition {name} is an edition of the {edition.area} area, not of {given}: "
                         f"give --area {edition.area} too, or an edition of {' or '.join(areas)} "
                         "(see `pi-conformance editions`)")


def check_cases(name: str, cases: list) -> None:
    """Refuse an edition none of the selected ``cases`` is of (``--edition profiles`` with
    ``--case 'msg-*'``, or the plugin's ``-k msg-``): the run would judge none of them by it yet
    carry its name (PI-DECISION-EDITIONS). ``cases``: objects with ``id`` and ``area``; none
    selected refuses nothing.

    Raises ``ValueError`` naming the edition, its area and the cases' areas.
    """
    area = get(name).area
    areas = sorted({c.area for c in cases})
    if cases and area not in areas:
        what = f"case {cases[0].id} is" if len(cases) == 1 else "the selected cases are"
        raise ValueError(f"--edition {name} is an edition of the {area} area; {what} of the "
                         f"{' and '.join(areas)} area{'s' if len(areas) > 1 else ''} (see `pi-conformance editions`)")


def held_elsewhere(what: str, cases: list, run_edition: str | None) -> str | None:
    """Why ``cases`` (objects with ``area`` and ``editions``), which ``what`` (``--case 'msg-*'``,
    ``-k msg``) matched, were not selected in a run of ``run_edition``: the editions they hold
    in instead, with the option that selects one; ``None`` when some hold in the edition that
    judges their area in a run of ``run_edition``."""
    held = sorted({e for c in cases if c.editions for e in c.editions if judged(run_edition, c.area) not in c.editions})
    if not held:
        return None
    judging_them = label(judging(run_edition, {c.area for c in cases}))
    return f"{what}: the matching case(s) do not hold in {judging_them}; they hold in {', '.join(held)} (add --edition {held[0]})"


def holds(item_editions: tuple[str, ...] | None, area: str, run_edition: str | None) -> bool:
    """Whether an item (a case) of ``area`` holding for ``item_editions`` (``None``: all of its
    area's) is judged in a run of ``run_edition``."""
    if item_editions is None:
        return True
    return judged(run_edition, area) in item_editions


def shared(area: str, clause_editions: list[list[str] | None]) -> tuple[str, ...]:
    """The editions of ``area`` that every clause holds for (a clause's ``None``: all), in
    :data:`EDITIONS` order."""
    out = of_area(area)
    for listed in clause_editions:
        if listed is not None:
            out = [name for name in out if name in listed]
    return tuple(out)
