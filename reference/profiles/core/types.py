"""Shared records of the profiles core.

All records are plain frozen dataclasses; sizes are UTF-8 byte counts; a *reference* is the
explicit ``scope:id`` string of a profile (``global:base``, ``project:local``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Scope = Literal["global", "project"]
SCOPES: tuple[Scope, ...] = ("global", "project")
Level = Literal["error", "warn", "info"]


@dataclass(frozen=True)
class Diagnostic:
    """One finding, reported next to a result and never inside a prompt (PROF-DIAG-CODES: its
    level and code are the contract; scope, subject and detail are facets, the message is prose).

    Attributes:
        level: ``error`` (something was refused or ignored), ``warn`` (kept or skipped with a
            warning), ``info``.
        code: stable kebab-case code, compared by conformance cases.
        scope: the scope the finding belongs to, or ``None`` when it has none.
        subject: what the finding is about (a file name, a profile reference, a config key path,
            a binding id), or ``None``.
        message: human-readable text; never compared.
        detail: a finer distinction within one code, or ``None``: the codes are those of the
            published implementation, and where the specification tells two conditions apart
            that share a code (a missing selected profile and a missing parent are both
            ``profile-missing``) ``detail`` names which one it is.
    """

    level: Level
    code: str
    scope: Scope | None
    subject: str | None
    message: str
    detail: str | None = None

    def as_record(self) -> dict[str, Any]:
        """The comparable part: ``{level, code, scope, subject, detail}`` (the message is left
        out)."""
        return {"level": self.level, "code": self.code, "scope": self.scope, "subject": self.subject,
                "detail": self.detail}


def sort_diagnostics(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in the suite's canonical order: by scope (none, global, project), code,
    subject, detail. The spec defines no order, so outputs use this one."""
    order = {None: 0, "global": 1, "project": 2}
    return sorted(diags, key=lambda d: (order[d.scope], d.code, d.subject or "", d.detail or ""))


@dataclass(frozen=True)
class ProfileRef:
    """A profile's identity: its scope and its id."""

    scope: Scope
    id: str

    def __str__(self) -> str:
        return f"{self.scope}:{self.id}"


@dataclass(frozen=True)
class LoadedProfile:
    """A profile file that passed discovery.

    Attributes:
        ref: scope and id (the file name without ``.md``).
        body: the file's text, verbatim except one leading BOM.
        size: UTF-8 bytes of ``body``.
        name: the file name as found on disk.
    """

    ref: ProfileRef
    body: str
    size: int
    name: str


@dataclass(frozen=True)
class MatchRule:
    """One rule of a binding: ``provider`` AND ``model``; ``None`` means absent (a pattern)."""

    provider: str | None = None
    model: str | None = None


@dataclass(frozen=True)
class Binding:
    """A binding of one config, in file order.

    Attributes:
        id: binding id (valid id syntax).
        profile: the profile it names, already resolved in the config's scope.
        priority: finite number, default 0; higher wins.
        match: rules, OR-ed; at least one.
        index: position in the config's ``bindings`` array (file order).
    """

    id: str
    profile: ProfileRef
    priority: float
    match: tuple[MatchRule, ...]
    index: int


@dataclass(frozen=True)
class Selection:
    """A selection: ``auto``, ``off`` or ``manual`` with a profile reference."""

    mode: Literal["auto", "manual", "off"]
    profile: ProfileRef | None = None

    def as_record(self) -> dict[str, Any]:
        rec: dict[str, Any] = {"mode": self.mode}
        if self.profile is not None:
            rec["profile"] = str(self.profile)
        return rec


@dataclass
class Config:
    """The interpreted part of one scope's ``config.json`` (version 1).

    ``raw`` is the whole parsed JSON object, unknown keys included, so edits can keep them.
    ``profiles`` maps a profile id to its metadata: ``extends`` is kept raw (any JSON value,
    checked when the chain is built) and ``description`` is a string.
    """

    scope: Scope
    raw: dict[str, Any]
    selection: Selection | None = None
    default_profile: ProfileRef | None = None
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)
    bindings: list[Binding] = field(default_factory=list)
    inherit_global_bindings: bool | None = None
    subagents: str | None = None
    unknown_keys: list[str] = field(default_factory=list)


@dataclass
class ScopeState:
    """Everything one scope contributes: its profiles, its config (``None`` when absent or
    ignored) and the diagnostics found while reading them."""

    scope: Scope
    profiles: dict[str, LoadedProfile] = field(default_factory=dict)
    config: Config | None = None
    config_present: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass
class State:
    """The loaded state resolution works on: the global scope and, only for a trusted project,
    the project scope (``None`` otherwise)."""

    global_: ScopeState
    project: ScopeState | None

    def scope(self, scope: Scope) -> ScopeState | None:
        return self.global_ if scope == "global" else self.project


@dataclass(frozen=True)
class Model:
    """The active model: provider name and model id (which may contain ``/``)."""

    provider: str
    id: str


@dataclass(frozen=True)
class Layer:
    """One layer of a built profile: its reference and its body."""

    ref: ProfileRef
    body: str


@dataclass(frozen=True)
class BuiltProfile:
    """A profile with its bases: ``layers[0]`` is the profile itself, then its bases nearest
    first."""

    ref: ProfileRef
    layers: tuple[Layer, ...]
