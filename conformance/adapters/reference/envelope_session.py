"""Reference handler of ``envelope.session`` (see :mod:`conformance.operations.envelope_session`).

A script runs in one fresh simulated process: a :class:`~reference.envelope.globals.GlobalScope`
and, once loaded, an :class:`~reference.envelope.service.EnvelopeService`. Each step kind has one
small runner in :data:`_STEP_RUNNERS`.
"""

from __future__ import annotations

from typing import Any, Callable

from pydantic import BaseModel, ValidationError

from conformance.adapters.reference import Context, implements
from conformance.adapters.reference.envelope_models import to_contribution, to_request
from conformance.operations import envelope_models as ops
from conformance.operations import envelope_session as session_ops
from reference.envelope import audit
from reference.envelope.contributions import register_contribution, unregister_contribution
from reference.envelope.globals import (
    ADAPTERS_KEY,
    CONTRIBUTIONS_KEY,
    SERVICE_KEY,
    GlobalScope,
    SharedRegistry,
    is_compatible,
)
from reference.envelope.payload import ProbeAdapter, register_adapter
from reference.envelope.service import EnvelopeService
from reference.errors import SpecError


def _step_error(index: int, kind: str | None, exc: ValidationError | str) -> SpecError:
    where = f"steps[{index}]" + (f".{kind}" if kind else "")
    if isinstance(exc, str):
        return SpecError("session-step-invalid", f"{where}: {exc}", path=where)
    first = exc.errors()[0]
    loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
    return SpecError("session-step-invalid", f"{where}{loc}: {first['msg']}", path=f"{where}{loc}")


def parse_steps(raw: list[Any]) -> list[tuple[str, BaseModel]]:
    """Validate every step before any runs.

    Clauses:
        ENV-SCRIPT-STEPS: a step that is not a one-key object, names an unknown kind, or has a
            body that breaks its schema refuses the whole script.

    Raises:
        SpecError: ``session-step-invalid`` naming the step index and field.
    """
    parsed: list[tuple[str, BaseModel]] = []
    for i, step in enumerate(raw):
        if not isinstance(step, dict) or len(step) != 1:
            raise _step_error(i, None, "a step is an object with exactly one key, the step kind")
        (kind, body), = step.items()
        model = session_ops.STEP_MODELS.get(kind)
        if model is None:
            raise _step_error(i, None, f"unknown step kind {kind!r}; known: {', '.join(session_ops.STEP_MODELS)}")
        try:
            parsed.append((kind, model.model_validate({} if body is None else body)))
        except ValidationError as exc:
            raise _step_error(i, kind, exc) from exc
    return parsed


class _Script:
    """The state of one running session script: one simulated process."""

    def __init__(self, inp: session_ops.SessionInput) -> None:
        self.host = inp.host
        self.scope = GlobalScope()
        self.service: EnvelopeService | None = None
        roles, diagnostics = audit.audit_setting(inp.auditEntries)
        self.roles = roles
        self.setting_diagnostics = diagnostics

    def loaded(self) -> EnvelopeService:
        """The running service, loading the extension first when needed."""
        if self.service is None:
            self.load()
        assert self.service is not None
        return self.service

    def load(self) -> dict:
        """Load the extension: install or adopt the registries and publish the service."""
        before = {key: self.scope.objects.get(key) for key in (CONTRIBUTIONS_KEY, ADAPTERS_KEY)}
        self.service = EnvelopeService(self.scope, self.roles)
        out = {}
        for name, key in (("contributions", CONTRIBUTIONS_KEY), ("adapters", ADAPTERS_KEY)):
            old = before[key]
            out[name] = "created" if old is None else ("adopted" if is_compatible(old, key) else "replaced")
        out["service"] = self.scope.objects.get(SERVICE_KEY) is self.service
        # ENV-REGISTRY-INCOMPATIBLE's warnings, then ENV-AUDIT-SETTING-INVALID's diagnostic of the
        # setting the extension read as it loaded (the script's initial auditEntries)
        out["diagnostics"] = [*self.scope.warnings, *self.setting_diagnostics]
        return out

    def run(self, kind: str, body: Any) -> dict:
        """Run one validated step and return its answer (without ``step``).

        Steps that need the extension load it first (:data:`_NEEDS_LOADED`).

        Raises:
            SpecError: the step is refused; the script records it and goes on.
        """
        if kind in _NEEDS_LOADED:
            self.loaded()
        return _STEP_RUNNERS[kind](self, body)

    @property
    def svc(self) -> EnvelopeService:
        """The running service (steps that need it load the extension before they run)."""
        return self.loaded()


# --- step runners: one function per step kind ------------------------------------------------


def _global_registry(script: _Script, body: session_ops.GlobalRegistryStep) -> dict:
    key = CONTRIBUTIONS_KEY if body.key == "contributions" else ADAPTERS_KEY
    script.scope.objects[key] = SharedRegistry(body.protocol, body.version)
    return {}


def _global_set(script: _Script, body: session_ops.GlobalSetStep) -> dict:
    if body.contribution is not None:
        target = script.scope.objects.get(CONTRIBUTIONS_KEY)
        entry: Any = to_contribution(body.contribution)
        key = entry.id
    else:
        assert body.adapter is not None
        target = script.scope.objects.get(ADAPTERS_KEY)
        entry = ProbeAdapter(body.adapter.provider or "", body.adapter.developerMessages)
        key = entry.provider
    if not isinstance(target, dict):
        raise SpecError("registry-missing", "globalSet needs a registry: add a globalRegistry step or load first")
    target[key] = entry
    return {}


def _load(script: _Script, body: session_ops.EmptyStep) -> dict:
    if script.service is not None:
        raise SpecError("already-loaded", "the extension is already loaded")
    return script.load()


def _register(script: _Script, body: ops.ContributionSpec) -> dict:
    register_contribution(script.svc.contributions, to_contribution(body))
    return {}


def _unregister(script: _Script, body: session_ops.UnregisterStep) -> dict:
    return {"removed": unregister_contribution(script.svc.contributions, body.id)}


def _register_adapter(script: _Script, body: session_ops.AdapterSpec) -> dict:
    register_adapter(script.svc.adapters, ProbeAdapter(body.provider or "", body.developerMessages))
    return {}


def _capture(script: _Script, body: ops.CaptureRequest) -> dict:
    result = script.svc.capture(to_request(body, script.host))
    return {
        "systemPrompt": result.systemPrompt,
        "envelope": result.envelope.to_json() if result.envelope else None,
        "notification": result.notification,
        "audit": result.audit,
    }


def _current(script: _Script, body: session_ops.CurrentStep) -> dict:
    overrides: dict[str, Any] = {}
    if "provider" in body.model_fields_set:
        overrides["provider"] = body.provider
    if "activeTools" in body.model_fields_set and body.activeTools is not None:
        overrides["activeTools"] = body.activeTools
    if "cwd" in body.model_fields_set and body.cwd is not None:
        overrides["cwd"] = body.cwd
    current = script.svc.current(body.sessionId, **overrides)
    return {"envelope": current.envelope.to_json() if current.envelope else None, "failure": current.failure}


def _clear(script: _Script, body: session_ops.SessionRef) -> dict:
    return {"cleared": script.svc.clear(body.sessionId)}


def _provider_request(script: _Script, body: session_ops.ProviderRequestStep) -> dict:
    return {"payload": script.svc.provider_request(body.sessionId, body.provider, body.payload)}


def _append(script: _Script, body: session_ops.AppendStep) -> dict:
    entry = script.svc.log(body.sessionId).append({"type": "message", "message": body.message})
    return {"entryId": entry["id"]}


def _entry(script: _Script, body: session_ops.EntryStep) -> dict:
    return {"entryId": script.svc.log(body.sessionId).append(body.entry)["id"]}


def _context(script: _Script, body: session_ops.ContextStep) -> dict:
    return {"messages": script.svc.context(body.sessionId, body.messages)}


def _compact(script: _Script, body: session_ops.SessionRef) -> dict:
    return {"messages": script.svc.compaction_input(body.sessionId)}


def _navigate(script: _Script, body: session_ops.NavigateStep) -> dict:
    summary = script.svc.navigate(body.sessionId, body.to)
    return {"leaf": script.svc.log(body.sessionId).leaf, "summaryInput": summary}


def _entries(script: _Script, body: session_ops.SessionRef) -> dict:
    return {"entries": script.svc.log(body.sessionId).branch()}


def _setting(script: _Script, body: session_ops.SettingStep) -> dict:
    if "toml" in body.model_fields_set:
        roles, diagnostics = audit.settings_from_toml(body.toml)
    else:
        roles, diagnostics = audit.audit_setting(body.auditEntries)
    script.svc.auditEntries = roles
    return {"auditEntries": list(roles), "diagnostics": diagnostics}


def _resume(script: _Script, body: session_ops.EmptyStep) -> dict:
    script.svc.resume()
    return {}


_STEP_RUNNERS: dict[str, Callable[[_Script, Any], dict]] = {
    "globalRegistry": _global_registry,
    "globalSet": _global_set,
    "load": _load,
    "register": _register,
    "unregister": _unregister,
    "registerAdapter": _register_adapter,
    "capture": _capture,
    "current": _current,
    "clear": _clear,
    "providerRequest": _provider_request,
    "append": _append,
    "entry": _entry,
    "context": _context,
    "compact": _compact,
    "navigate": _navigate,
    "entries": _entries,
    "setting": _setting,
    "resume": _resume,
}
"""Step kind -> its runner; the keys are exactly those of :data:`conformance.operations.envelope_session.STEP_MODELS`."""

_NEEDS_LOADED = frozenset(_STEP_RUNNERS) - {"globalRegistry", "globalSet", "load"}
"""Step kinds that load the extension first when no ``load`` step has run."""


@implements("envelope.session")
def session(inp: session_ops.SessionInput, ctx: Context) -> dict:
    """``envelope.session``: validate every step, then run them in one fresh simulated process."""
    steps = parse_steps(inp.steps)
    script = _Script(inp)
    answers: list[dict] = []
    for kind, body in steps:
        try:
            answer = {"step": kind, **script.run(kind, body)}
        except SpecError as exc:
            answer = {"step": kind, "error": {"code": exc.code}}
        answers.append(answer)
    return {"steps": answers}
