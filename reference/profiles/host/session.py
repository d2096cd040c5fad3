"""The session edge: the selection entry, the per-cwd cache, agent start, provider request, preview
and config edits, as the extension's runtime does them, keeping the pending, composed and observed
records apart (:class:`Session`)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from reference.errors import SpecError
from reference.profiles.core.compose import Composition, Observation, compose, observe
from reference.profiles.core.inherit import build_profile
from reference.profiles.core.resolve import Resolution, SessionSelection, effective_selection, resolve, session_profile_ref
from reference.profiles.core.settings import apply_setting, parse_setting, setting_spec, unset_setting
from reference.profiles.core.types import Diagnostic, Model, Scope, State
from reference.profiles.host import disk

SELECTION_ENTRY_TYPE = "pi-prompt-profiles/selection"
SUBAGENT_ENV = "PI_SUBAGENT_CHILD"


def is_subagent_child(env: Mapping[str, str]) -> bool:
    """Whether a session is a subagent child: ``PI_SUBAGENT_CHILD`` is exactly ``"1"`` in the
    environment the host passes in. Implements PROF-SUBAGENT-DETECT."""
    return env.get(SUBAGENT_ENV) == "1"


@dataclass
class Entry:
    """A session entry: ``id``, ``parentId`` (``None`` for the first), ``type`` (``message`` or
    ``custom``) and, for a custom entry, ``customType`` and ``data``."""

    id: str
    parentId: str | None
    type: str
    customType: str | None = None
    data: Any = None

    def as_record(self) -> dict[str, Any]:
        rec: dict[str, Any] = {"id": self.id, "parentId": self.parentId, "type": self.type}
        if self.type == "custom":
            rec["customType"] = self.customType
            rec["data"] = self.data
        return rec


def selection_from_branch(entries: dict[str, Entry], leaf: str | None) -> SessionSelection | None:
    """The session selection stored on the active branch: the nearest
    ``pi-prompt-profiles/selection`` entry walking from ``leaf`` to the root. Entries of other
    branches are never consulted, however recent; a malformed entry is passed over.
    Implements PROF-SESSION-RESTORE."""
    cur = leaf
    while cur is not None:
        entry = entries[cur]
        if entry.type == "custom" and entry.customType == SELECTION_ENTRY_TYPE:
            data = entry.data
            if isinstance(data, dict) and data.get("mode") in ("auto", "off"):
                return SessionSelection(data["mode"])
            if isinstance(data, dict) and data.get("mode") == "manual" and isinstance(data.get("profile"), str):
                return SessionSelection("manual", data["profile"])
        cur = entry.parentId
    return None


class StateCache:
    """Loaded state per ``(cwd, trusted)``: one project's profiles never serve another cwd.
    :meth:`clear` (``/sp reload``, a model change, a resume) forgets everything.
    Implements PROF-CACHE."""

    def __init__(self, agent_dir: Path, loader: Callable[[Path, Path, bool], State] = disk.load_state) -> None:
        self.agent_dir = agent_dir
        self._loader = loader
        self._states: dict[tuple[str, bool], State] = {}
        self.loads = 0
        self._fail_next = False

    def fail_next_load(self) -> None:
        """Make the next disk read raise ``OSError`` (a host fault, for tests of failure paths)."""
        self._fail_next = True

    def get(self, cwd: Path, trusted: bool) -> State:
        """The state for ``(cwd, trusted)``, loaded on first use. Raises ``OSError`` when a
        failure was requested with :meth:`fail_next_load`."""
        key = (str(cwd), trusted)
        if key not in self._states:
            if self._fail_next:
                self._fail_next = False
                raise OSError("simulated I/O error while reading profiles")
            self._states[key] = self._loader(self.agent_dir, cwd, trusted)
            self.loads += 1
        return self._states[key]

    def clear(self) -> None:
        self._states.clear()


@dataclass
class Composed:
    """The record of the last agent start: the resolution and the prompt returned."""

    resolution: Resolution
    composition: Composition


@dataclass
class Session:
    """One Pi session with the extension loaded; its pending selection, the prompt composed at
    agent start and the payload observed at provider request are three separate records
    (PROF-OBSERVE-SEPARATE): the *pending selection* is what the next agent start will use, the
    *composed* record what the last agent start returned, and the *observed* record what the last
    provider request carried; the provider-request step only reads its payload.

    Attributes:
        cache: the state cache (shared by a reused extension instance).
        cwd, trusted, model, env: the session's explicit inputs (``model`` is ``None`` until one
            is selected).
        entries, leaf: the session tree and the active leaf.
        selection: the pending session selection (restored from the active branch).
        composed, observed: the last agent-start and provider-request records.
    """

    cache: StateCache
    cwd: Path
    trusted: bool
    model: Model | None
    env: Mapping[str, str] = field(default_factory=dict)
    entries: dict[str, Entry] = field(default_factory=dict)
    leaf: str | None = None
    selection: SessionSelection | None = None
    composed: Composed | None = None
    observed: Observation | None = None
    _next: int = 1
    pending_edit: disk.PendingEdit | None = None
    pending_change: tuple[str, Any] | None = None

    # -- state -------------------------------------------------------------------------------
    def state(self) -> State:
        """The loaded state for the session's cwd and trust (cached)."""
        return self.cache.get(self.cwd, self.trusted)

    def append(self, type_: str, custom_type: str | None = None, data: Any = None) -> Entry:
        """Append an entry under the active leaf; ids are ``e1``, ``e2``, ... in append order; the
        new entry becomes the active leaf."""
        entry = Entry(f"e{self._next}", self.leaf, type_, custom_type, data)
        self._next += 1
        self.entries[entry.id] = entry
        self.leaf = entry.id
        return entry

    # -- selection ---------------------------------------------------------------------------
    def select(self, mode: str, profile: str | None = None) -> Entry:
        """Set the session selection (flag or ``/sp use``/``/sp auto``/``/sp off``) and persist
        it as a ``pi-prompt-profiles/selection`` custom entry holding ``{mode}`` or
        ``{mode: "manual", profile: "scope:id"}`` (explicit reference).

        A manual selection of a name that is not a reference is refused with
        ``selection-invalid``, one of a profile that cannot be built with the build's code
        (``profile-missing``, ``profile-cycle``, ...) and the previous selection is kept
        (PROF-SELECTION-KEEP). Implements PROF-SESSION-ENTRY.
        """
        if mode not in ("auto", "manual", "off"):
            raise SpecError("selection-mode-invalid", f"mode must be auto, manual or off, not {mode!r}", path="mode")
        data: dict[str, Any] = {"mode": mode}
        if mode == "manual":
            state = self.state()
            ref = session_profile_ref(state, profile)
            if ref is None:
                raise SpecError("selection-invalid", f"{profile!r} is not a profile reference", path="profile")
            built, problem = build_profile(state, ref)
            if built is None:
                assert problem is not None
                raise SpecError(problem.code, problem.message, path="profile")
            data["profile"] = str(ref)
        entry = self.append("custom", SELECTION_ENTRY_TYPE, data)
        self.selection = selection_from_branch(self.entries, self.leaf)
        return entry

    def navigate(self, to: str | None) -> None:
        """Move the active leaf (tree navigation) and restore the selection from that branch."""
        if to is not None and to not in self.entries:
            raise SpecError("entry-not-found", f"no session entry {to!r}", path="to")
        self.leaf = to
        self.selection = selection_from_branch(self.entries, self.leaf)

    def resume(self) -> None:
        """Resume the session in a fresh runtime: cache, records and pending selection are
        dropped, and the selection is restored from the active branch."""
        self.cache.clear()
        self.composed = None
        self.observed = None
        self.selection = selection_from_branch(self.entries, self.leaf)

    def pending(self) -> dict[str, Any]:
        """The pending selection and its source (session, project, global or default)."""
        sel, source = effective_selection(self.state(), self.selection)
        rec: dict[str, Any] = {"mode": sel.mode, "source": source}
        if sel.profile is not None:
            rec["profile"] = sel.profile
        return rec

    # -- hooks -------------------------------------------------------------------------------
    def agent_start(self, system_prompt: str | None) -> tuple[Composed | None, Diagnostic | None]:
        """``before_agent_start``: resolve and compose. Any failure is caught and reported as
        ``hook-failed``; no system prompt is returned, so Pi keeps its native prompt
        (PROF-HOOK-FAILURE)."""
        try:
            state = self.state()
            res = resolve(state, self.model, self.selection, child=is_subagent_child(self.env))
            bodies = [layer.body for layer in res.profile.layers] if res.profile else None
            comp = compose(system_prompt, bodies, off=res.mode == "off")
        except Exception as exc:  # a failing hook must never break Pi's turn
            return None, Diagnostic("error", "hook-failed", None, "before_agent_start", f"{type(exc).__name__}: {exc}")
        self.composed = Composed(res, comp)
        return self.composed, None

    def provider_request(self, payload: Any) -> tuple[Observation, Any]:
        """``before_provider_request``: observe ``payload`` against the last composed block and
        return it untouched (a deep copy is compared to prove it). Implements
        PROF-OBSERVE-READONLY."""
        before = copy.deepcopy(payload)
        block = self.composed.composition.block if self.composed else None
        self.observed = observe(payload, block)
        assert payload == before, "the provider-request step changed its payload"
        return self.observed, payload

    # -- config edits ------------------------------------------------------------------------
    def config_path(self, scope: Scope) -> Path:
        """The ``config.json`` path of ``scope`` for this session."""
        return disk.scope_dir(self.cache.agent_dir, self.cwd, scope) / disk.CONFIG_FILE

    def begin_change(self, scope: Scope, action: str, key: str, value: str | None) -> None:
        """Validate a ``set``/``unset`` and read the config it will change. ``set`` is parsed
        against the registry before anything is read; a project edit needs a trusted project
        (``project-untrusted``). Implements PROF-EDIT-TRUST."""
        if scope == "project" and not self.trusted:
            raise SpecError("project-untrusted", "the project is not trusted; its config is never touched", path="scope")
        if action == "set":
            parsed = parse_setting(key, value or "", scope)
        elif action == "unset":
            parsed = (setting_spec(key).key, None)
        else:
            raise SpecError("setting-action-invalid", f"action must be set or unset, not {action!r}", path="action")
        self.pending_edit = disk.begin_edit(self.config_path(scope), scope)
        self.pending_change = (action, parsed)

    def commit_change(self) -> dict[str, Any]:
        """Write the change read by :meth:`begin_change`, reload and return
        ``{config, diagnostics, pending}``. After the write the config baseline applies only
        when the session has no selection of its own (PROF-EDIT-BASELINE); on refusal nothing
        changes (PROF-SELECTION-KEEP)."""
        if self.pending_edit is None or self.pending_change is None:
            raise SpecError("edit-not-started", "no config edit is in progress", path="do")
        edit, (action, parsed) = self.pending_edit, self.pending_change
        self.pending_edit = self.pending_change = None
        if action == "set":
            new_raw = apply_setting(edit.raw, parsed[0], parsed[1])
        else:
            new_raw = unset_setting(edit.raw, parsed[0])
        _config, diags, written = disk.commit_edit(edit, new_raw)
        self.cache.clear()
        return {"written": written, "diagnostics": diags, "pending": self.pending()}
