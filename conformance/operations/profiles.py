"""Input and output models of the profiles area's operations (pi-prompt-profiles' architecture,
PROF-DECISION-*): nine stateless operations and ``profiles.session``'s script. The steps of a
script, the diagnostic codes with their levels and subjects, and the changes to these operations
are in the guide ``docs/profiles.md``. Models and schemas only: the rules are the reference's."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from conformance.operations.base import OpModel, operation

Scope = Literal["global", "project"]
BEGIN_MARKER = "<!-- system-instructions:begin v1 -->"
"""The managed block's first line (PROF-BLOCK, PROF-MARKER-FORGERY): the kit's one copy."""

END_MARKER = "<!-- system-instructions:end -->"
"""The managed block's last line (PROF-BLOCK, PROF-MARKER-FORGERY): the kit's one copy."""


class Diag(OpModel):
    """A diagnostic: level, stable code (the published implementation's), scope (or null),
    subject (or null) and ``detail``: which of the conditions sharing the code it is, or null
    (the table of codes is in the guide ``docs/profiles.md``); ``message``: text for people, never compared.

    ``scope``, ``subject`` and ``detail`` are facets (:mod:`conformance.judge.facets`): no clause
    defines them, so they may be left out, and they are compared only for an implementation that
    declares them in its handshake (``diagnostic.scope``, ``diagnostic.subject``,
    ``diagnostic.detail``)."""

    level: Literal["error", "warn", "info"]
    code: str
    scope: Scope | None = None
    subject: str | None = None
    detail: str | None = None
    message: str | None = None


class ModelId(OpModel):
    """A model: its provider and its id (which may contain ``/``)."""

    provider: str
    id: str


class Rule(OpModel):
    """A binding rule as interpreted: absent fields are patterns."""

    provider: str | None = None
    model: str | None = None


class Where(OpModel):
    """Where the tree puts Pi's agent directory and the session's cwd (tree-relative), and
    whether the project is trusted."""

    agentDir: str
    cwd: str
    trusted: bool = False


# -- profiles.load -----------------------------------------------------------------------------
class LoadInput(Where):
    """``bodies``: include each profile's body (else only its size and SHA-256); ``scope``: report
    that scope alone -- its profiles, config and diagnostics; the other scope is null (chains are
    still built against everything loaded, since a project profile may extend a global one)."""

    bodies: bool = False
    scope: Scope | None = None


class ProfileOut(OpModel):
    """One loaded profile: ``ref`` (``scope:id``), ``file`` name, body ``size`` (UTF-8 bytes,
    after the BOM) and ``sha256`` (hex), ``body`` when asked, ``description``, and whether its
    chain builds: ``layers`` (references, itself first) or the one ``diagnostic``."""

    ref: str
    file: str
    size: int
    sha256: str
    body: str | None = None
    description: str | None = None
    layers: list[str]
    diagnostic: Diag | None = None


class ConfigOut(OpModel):
    """The interpreted config of a scope (``null`` values: absent or dropped)."""

    selection: dict[str, str] | None
    defaultProfile: str | None
    profiles: dict[str, dict[str, Any]]
    bindings: list[dict[str, Any]]
    inheritGlobalBindings: bool | None
    subagents: str | None
    unknownKeys: list[str]


class ScopeOut(OpModel):
    """A scope: its profiles sorted by id, and its config (``null`` when absent or ignored)."""

    profiles: list[ProfileOut]
    configPresent: bool
    config: ConfigOut | None


class LoadOutput(OpModel):
    """Both scopes (``project`` is null for an untrusted project; either is null when ``scope``
    names the other) and every discovery and config diagnostic of the scopes reported."""

    global_: ScopeOut | None = Field(alias="global")
    project: ScopeOut | None
    diagnostics: list[Diag]

    model_config = {"extra": "forbid", "populate_by_name": True}


operation("profiles.load", input=LoadInput, output=LoadOutput, uses_tree=True,
          summary="Discover profiles, read config and build every chain (PROF-DECISION-*).")


# -- profiles.resolve --------------------------------------------------------------------------
class SessionSel(OpModel):
    """A session-level selection: ``mode`` and, for ``manual``, a profile name."""

    mode: Literal["auto", "manual", "off"]
    profile: str | None = None


class ResolveInput(Where):
    """``model``: the active model (null: none selected yet); ``session``: the session's own
    selection (null: none); ``env``: the environment variables
    the extension sees (only ``PI_SUBAGENT_CHILD`` matters); ``systemPrompt``: the chained base
    prompt given to ``before_agent_start`` (null is treated as empty)."""

    model: ModelId | None
    session: SessionSel | None = None
    env: dict[str, str] = {}
    systemPrompt: str | None = None


class BindingOut(OpModel):
    """A binding that matched: its scope, id, priority, specificity and best matching rule."""

    scope: Scope
    id: str
    priority: float
    specificity: int
    rule: Rule


class LoserOut(BindingOut):
    """A binding that matched and did not apply: the profile it names and why (``conflict``: tied
    with a binding naming another profile; ``outranked``: a lower priority or specificity;
    ``file-order``: ranked equal with the winner, same profile, written later; ``unbuildable``:
    it won but its profile could not be built). ``reason`` is a facet (``loser.reason``,
    :mod:`conformance.judge.facets`): it may be left out, and is compared only for an implementation
    that declares it."""

    profile: str
    reason: Literal["conflict", "outranked", "file-order", "unbuildable"] | None = None


class ResolveOutput(OpModel):
    """``mode``/``source``: the selection in force and where it came from; ``effectiveMode``:
    the mode applied once a child's subagent policy is taken into account (``off`` under policy
    ``off``, ``auto`` under ``bindings`` unless the selection is ``off``); ``subagents``: the
    policy applied to a child (null otherwise); ``via``: how the profile was reached;
    ``profile``/``layers``: the result; ``binding``: the winning binding; ``losers``: every
    binding of the scopes consulted that matched and did not apply, in the order the scopes
    were consulted (project, global), then file order; ``systemPrompt``: what
    ``before_agent_start`` returns (null: nothing, Pi keeps its prompt)."""

    mode: Literal["auto", "manual", "off"]
    effectiveMode: Literal["auto", "manual", "off"]
    source: Literal["session", "project", "global", "default"]
    subagents: str | None
    via: str | None
    profile: str | None
    layers: list[str]
    binding: BindingOut | None
    losers: list[LoserOut]
    diagnostics: list[Diag]
    systemPrompt: str | None


operation("profiles.resolve", input=ResolveInput, output=ResolveOutput, uses_tree=True,
          summary="Resolve the profile for a model and compose the system prompt (PROF-DECISION-BLOCK, PROF-DECISION-STRIPPING, PROF-DECISION-RESOLUTION, PROF-DECISION-SUBAGENTS).")


# -- profiles.compose --------------------------------------------------------------------------
class ComposeInput(OpModel):
    """``layers``: bodies, profile first (null or empty: no profile); ``mode``: ``off`` returns
    nothing; ``times``: compose this many times, each pass over the previous result."""

    systemPrompt: str | None = None
    layers: list[str] | None = None
    mode: Literal["auto", "manual", "off"] = "auto"
    times: int = Field(default=1, ge=1, le=5)


class ComposeOutput(OpModel):
    """``passes``: the prompt after each pass (null: none returned); ``systemPrompt``: the last;
    ``removed``: blocks stripped in the first pass; ``diagnostics`` of the first pass."""

    systemPrompt: str | None
    passes: list[str | None]
    removed: int
    diagnostics: list[Diag]


operation("profiles.compose", input=ComposeInput, output=ComposeOutput,
          summary="Strip earlier managed blocks and prepend one (PROF-DECISION-*).")


# -- profiles.strip ----------------------------------------------------------------------------
class StripInput(OpModel):
    """A text (a system prompt) to remove managed blocks from."""

    text: str


class StripOutput(OpModel):
    """``text``: the text with every complete managed block removed, each with the newlines
    directly after it; ``removed``: how many blocks; ``diagnostics``: ``block-unterminated`` for
    a begin marker with no end marker after it (left as is)."""

    text: str
    removed: int
    diagnostics: list[Diag]


operation("profiles.strip", input=StripInput, output=StripOutput,
          summary="Remove every complete managed block; report an unterminated one (PROF-DECISION-STRIPPING).")


# -- profiles.config ---------------------------------------------------------------------------
class ConfigInput(OpModel):
    """One ``config.json``: its raw ``text``, or ``config``, any JSON value written out as JSON;
    exactly one of them."""

    scope: Scope
    text: str | None = None
    config: Any = None


class ConfigValidation(OpModel):
    config: ConfigOut | None
    diagnostics: list[Diag]


operation("profiles.config", input=ConfigInput, output=ConfigValidation,
          summary="Validate one config.json, key by key (PROF-DECISION-CONFIG).")


# -- profiles.match ----------------------------------------------------------------------------
class MatchInput(OpModel):
    """The ``match`` array of one binding (raw rules) and a model."""

    match: list[Any]
    model: ModelId


class MatchOutput(OpModel):
    """``rules``: for each rule, ``null`` when the rule is dropped as malformed, else whether it
    matches and its specificity; ``matches``/``specificity``: the binding's (best rule)."""

    rules: list[dict[str, Any] | None]
    matches: bool
    specificity: int | None


operation("profiles.match", input=MatchInput, output=MatchOutput,
          summary="Match a model against one binding's rules; specificity (PROF-DECISION-RESOLUTION).")


# -- profiles.settings -------------------------------------------------------------------------
class SettingsInput(OpModel):
    """``registry``: list the keys; ``parse``: validate ``set key value`` in ``scope``;
    ``effective``: the value of ``key`` from the ``global`` and ``project`` config objects (null:
    absent; ``project`` is null for an untrusted project)."""

    action: Literal["registry", "parse", "effective"]
    key: str | None = None
    value: str | None = None
    scope: Scope | None = None
    global_: Any = Field(default=None, alias="global")
    project: Any = None

    model_config = {"extra": "forbid", "populate_by_name": True}


class SettingsOutput(OpModel):
    registry: list[dict[str, Any]] | None = None
    key: str | None = None
    value: Any = None
    origin: Literal["project", "global", "default"] | None = None


operation("profiles.settings", input=SettingsInput, output=SettingsOutput,
          summary="The settings registry, set parsing and effective values (PROF-DECISION-CONFIG-EDITS).")


# -- profiles.config-edit ----------------------------------------------------------------------
class ConfigEditInput(Where):
    """``set``/``unset`` of ``key`` in the ``scope``'s config. ``outsideChange``: when given, this
    text replaces the file after it was read and before it is written (a racing edit)."""

    scope: Scope
    action: Literal["set", "unset"]
    key: str
    value: str | None = None
    outsideChange: str | None = None


class ConfigEditOutput(OpModel):
    """``written``: the file's text after the edit; ``diagnostics``: its re-validation;
    ``files``: the names in the config's directory afterwards, sorted (no temporary file is
    left behind)."""

    written: str
    diagnostics: list[Diag]
    files: list[str]


operation("profiles.config-edit", input=ConfigEditInput, output=ConfigEditOutput, uses_tree=True,
          summary="Edit one config key: version check, unknown fields kept, race refusal, atomic write (PROF-DECISION-CONFIG-EDITS).")


# -- profiles.picker ---------------------------------------------------------------------------
class PickerInput(OpModel):
    """``providers``/``models`` (of ``provider``) from ``models``; ``filter`` ``items`` by
    ``query``; ``window`` for ``total`` items, ``selected`` (an index outside the list is taken
    as the nearest end; absent: 0, PROF-PICKER-WINDOW-CLAMP) and ``terminalRows`` (absent: no
    height known, so ten rows, PROF-PICKER-WINDOW); ``pages`` of
    ``items``; ``bind`` choices (providers, then models of ``provider`` when given)."""

    action: Literal["providers", "models", "filter", "window", "pages", "bind"]
    models: list[ModelId] = []
    provider: str | None = None
    query: str | None = None
    items: list[str] = []
    total: int | None = Field(default=None, ge=0)
    selected: int | None = None
    terminalRows: int | None = None


class PickerOutput(OpModel):
    items: list[str] | None = None
    pages: list[list[str]] | None = None
    window: dict[str, int] | None = None
    choices: list[dict[str, Any]] | None = None


operation("profiles.picker", input=PickerInput, output=PickerOutput,
          summary="Picker list logic: providers, models, filter, window, pages, bind choices.")


# -- profiles.session --------------------------------------------------------------------------
class Step(OpModel):
    """One step of a session script; ``do`` names it (the steps are described in the guide
    ``docs/profiles.md``)."""

    do: Literal["select", "message", "navigate", "resume", "model", "cwd", "agentStart",
                "providerRequest", "preview", "write", "remove", "reload", "set", "unset",
                "beginEdit", "commitEdit", "failNextLoad"]
    mode: Literal["auto", "manual", "off"] | None = None
    profile: str | None = None
    to: str | None = None
    provider: str | None = None
    id: str | None = None
    path: str | None = None
    text: str | None = None
    systemPrompt: str | None = None
    payload: Any = None
    scope: Scope | None = None
    action: Literal["set", "unset"] | None = None
    key: str | None = None
    value: str | None = None


class SessionInput(Where):
    """``model``: the model the session starts with (null: none selected yet)."""

    model: ModelId | None
    env: dict[str, str] = {}
    steps: list[Step] = Field(min_length=1)


class SessionOutput(OpModel):
    """``steps``: one answer per step; ``entries``: the session tree at the end. A step the session
    refuses answers ``{do, ok: false, error: {code}}``, the code one its clause names or:
    ``entry-not-found`` (navigate to an entry the tree does not hold), ``edit-not-started``
    (commitEdit with no edit in progress; both PROF-SESSION-STEP-REFUSED), ``read-failed`` (a read that failNextLoad made fail,
    met by a step other than agentStart), ``selection-mode-invalid`` (a select whose mode is not
    auto, manual or off) or ``setting-action-invalid`` (a set step's action neither set nor unset)."""

    steps: list[dict[str, Any]]
    entries: list[dict[str, Any]]


operation("profiles.session", input=SessionInput, output=SessionOutput, uses_tree=True,
          summary="Session script: selection entries, branches, cache, agent start, observation, config edits.")
