"""Reference handlers of the envelope operations (see :mod:`conformance.operations.envelope`).

Declarative contribution content is turned into Python content functions here; everything else is
a thin mapping onto :mod:`reference.envelope`.
"""

from __future__ import annotations

from typing import Any, Callable

from pydantic import BaseModel, ValidationError

from conformance.adapters.reference import Context, implements
from conformance.operations import envelope as ops
from reference.envelope import audit
from reference.envelope.build import EnvelopeRequest, build_envelope, developer_messages
from reference.envelope.context_files import ContextFile, context_message, inject_context
from reference.envelope.contributions import (
    Contribution,
    ContributionFailed,
    RenderContext,
    contribution_registry,
    register_contribution,
    unregister_contribution,
)
from reference.envelope.environment import HostFacts, environment_message
from reference.envelope.globals import (
    ADAPTERS_KEY,
    CONTRIBUTIONS_KEY,
    SERVICE_KEY,
    GlobalScope,
    SharedRegistry,
    is_compatible,
)
from reference.envelope.instructions import provider_instructions
from reference.envelope.payload import ProbeAdapter, register_adapter
from reference.envelope.service import EnvelopeService
from reference.errors import SpecError

# --- declarative content ----------------------------------------------------------------------


def _template(text: str) -> Callable[[RenderContext], str]:
    def render(ctx: RenderContext) -> str:
        values = {
            "provider": ctx.provider or "",
            "sessionId": ctx.sessionId,
            "prompt": ctx.prompt,
            "activeTools": ",".join(ctx.activeTools),
            "customPrompt": ctx.systemPromptOptions.get("customPrompt") or "",
        }
        return ops._PLACEHOLDER.sub(lambda m: values[m.group(1)], text)

    return render


def _condition(cond: ops.PromptCondition) -> Callable[[RenderContext], bool]:
    if "promptContains" in cond.model_fields_set:
        needle = cond.promptContains or ""
        return lambda ctx: needle in ctx.prompt
    want = bool(cond.promptEmpty)
    return lambda ctx: (ctx.prompt == "") == want


def content_function(spec: ops.Content) -> Any:
    """The reference content (string, ``None`` or function) of a declarative content spec."""
    if spec is None or isinstance(spec, str):
        return spec
    if isinstance(spec, ops.TemplateContent):
        return _template(spec.template)
    if isinstance(spec, ops.RaisesContent):
        message = spec.raises

        def fail(ctx: RenderContext) -> str:
            raise RuntimeError(message)

        return fail
    test = _condition(spec.when)
    then, otherwise = content_function(spec.then), content_function(spec.otherwise)

    def choose(ctx: RenderContext) -> str | None:
        chosen = then if test(ctx) else otherwise
        return chosen(ctx) if callable(chosen) else chosen

    return choose


def to_contribution(spec: ops.ContributionSpec) -> Contribution:
    """The reference contribution of a declarative contribution (a missing id becomes ``""``, refused on registration)."""
    return Contribution(
        id=spec.id if spec.id is not None else "",
        priority=spec.priority,
        providers=tuple(spec.providers) if spec.providers is not None else None,
        activeTools=tuple(spec.activeTools) if spec.activeTools is not None else None,
        content=content_function(spec.content),
    )


def to_host(host: ops.Host) -> HostFacts:
    """The reference host facts of the operation model."""
    return HostFacts(
        platform=host.platform,
        shell=host.shell,
        comSpec=host.comSpec,
        shells=frozenset(host.shells),
        date=host.date,
        timezone=host.timezone,
    )


def to_files(files: list[ops.ContextFileSpec]) -> list[ContextFile]:
    """The reference context files of the operation model, in order."""
    return [ContextFile(path=f.path, content=f.content) for f in files]


def to_request(req: ops.CaptureRequest, default_host: ops.Host | None) -> EnvelopeRequest:
    """The reference request; ``host`` falls back to ``default_host``.

    Raises:
        SpecError: ``request-host-missing`` when neither gives a host.
    """
    host = req.host or default_host
    if host is None:
        raise SpecError("request-host-missing", "request.host is required", path="request.host")
    options = req.systemPromptOptions.model_dump(mode="json")
    return EnvelopeRequest(
        sessionId=req.sessionId,
        provider=req.provider,
        activeTools=tuple(req.activeTools),
        prompt=req.prompt,
        systemPrompt=req.systemPrompt,
        systemPromptOptions=options,
        cwd=req.cwd,
        agentDir=req.agentDir,
        host=to_host(host),
    )


def _register_all(registry: SharedRegistry, specs: list[ops.ContributionSpec]) -> None:
    for i, spec in enumerate(specs):
        try:
            register_contribution(registry, to_contribution(spec))
        except SpecError as exc:
            raise SpecError(exc.code, exc.message.replace("contribution.", f"contributions[{i}].", 1),
                            path=f"contributions[{i}]") from exc


def _failed(exc: ContributionFailed) -> SpecError:
    return SpecError("build-failed", f"System prompt build failed: {exc.message}")


# --- stateless operations --------------------------------------------------------------------


@implements("envelope.instructions")
def instructions(inp: ops.InstructionsInput, ctx: Context) -> dict:
    """``envelope.instructions``."""
    return {"providerInstructions": provider_instructions(inp.systemPrompt, inp.customPrompt, inp.appendSystemPrompt)}


@implements("envelope.environment")
def environment(inp: ops.EnvironmentInput, ctx: Context) -> dict:
    """``envelope.environment``."""
    return environment_message(inp.cwd, to_host(inp.host), inp.activeTools).to_json()


@implements("envelope.developer-messages")
def developer(inp: ops.DeveloperMessagesInput, ctx: Context) -> dict:
    """``envelope.developer-messages``: a fresh registry per call."""
    registry = contribution_registry(GlobalScope())
    _register_all(registry, inp.contributions)
    request = EnvelopeRequest(
        sessionId=inp.sessionId, provider=inp.provider, activeTools=tuple(inp.activeTools),
        prompt=inp.prompt, systemPrompt=None, systemPromptOptions={}, cwd=inp.cwd, agentDir=None,
        host=to_host(inp.host),
    )
    try:
        messages = developer_messages(list(registry.values()), request)
    except ContributionFailed as exc:
        raise _failed(exc) from exc
    return {"messages": [m.to_json() for m in messages]}


@implements("envelope.context-message")
def context_message_op(inp: ops.ContextMessageInput, ctx: Context) -> dict:
    """``envelope.context-message``."""
    return {"message": context_message(inp.cwd, to_files(inp.contextFiles), inp.agentDir)}


@implements("envelope.context-hook")
def context_hook(inp: ops.ContextHookInput, ctx: Context) -> dict:
    """``envelope.context-hook``."""
    message = context_message(inp.cwd, to_files(inp.contextFiles), inp.agentDir)
    return {"messages": inject_context(inp.messages, message)}


@implements("envelope.build")
def build(inp: ops.BuildInput, ctx: Context) -> dict:
    """``envelope.build``: a fresh registry per call."""
    registry = contribution_registry(GlobalScope())
    _register_all(registry, inp.contributions)
    try:
        return build_envelope(list(registry.values()), to_request(inp.request, None)).to_json()
    except ContributionFailed as exc:
        raise _failed(exc) from exc


@implements("envelope.settings")
def settings(inp: ops.SettingsInput, ctx: Context) -> dict:
    """``envelope.settings``."""
    roles, diagnostics = audit.settings_from_toml(inp.toml)
    return {"auditEntries": list(roles), "toml": audit.settings_to_toml(roles), "ignored": bool(diagnostics)}


# --- envelope.session ----------------------------------------------------------------------------


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
        model = ops.STEP_MODELS.get(kind)
        if model is None:
            raise _step_error(i, None, f"unknown step kind {kind!r}; known: {', '.join(ops.STEP_MODELS)}")
        try:
            parsed.append((kind, model.model_validate({} if body is None else body)))
        except ValidationError as exc:
            raise _step_error(i, kind, exc) from exc
    return parsed


class _Script:
    """The state of one running session script: one simulated process."""

    def __init__(self, inp: ops.SessionInput) -> None:
        self.host = inp.host
        self.scope = GlobalScope()
        self.service: EnvelopeService | None = None
        roles, _ = audit.audit_setting(inp.auditEntries)
        self.roles = roles

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


def _global_registry(script: _Script, body: ops.GlobalRegistryStep) -> dict:
    key = CONTRIBUTIONS_KEY if body.key == "contributions" else ADAPTERS_KEY
    script.scope.objects[key] = SharedRegistry(body.protocol, body.version)
    return {}


def _global_set(script: _Script, body: ops.GlobalSetStep) -> dict:
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


def _load(script: _Script, body: ops.EmptyStep) -> dict:
    if script.service is not None:
        raise SpecError("already-loaded", "the extension is already loaded")
    return script.load()


def _register(script: _Script, body: ops.ContributionSpec) -> dict:
    register_contribution(script.svc.contributions, to_contribution(body))
    return {}


def _unregister(script: _Script, body: ops.UnregisterStep) -> dict:
    return {"removed": unregister_contribution(script.svc.contributions, body.id)}


def _register_adapter(script: _Script, body: ops.AdapterSpec) -> dict:
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


def _current(script: _Script, body: ops.CurrentStep) -> dict:
    overrides: dict[str, Any] = {}
    if "provider" in body.model_fields_set:
        overrides["provider"] = body.provider
    if "activeTools" in body.model_fields_set and body.activeTools is not None:
        overrides["activeTools"] = body.activeTools
    if "cwd" in body.model_fields_set and body.cwd is not None:
        overrides["cwd"] = body.cwd
    current = script.svc.current(body.sessionId, **overrides)
    return {"envelope": current.envelope.to_json() if current.envelope else None, "failure": current.failure}


def _clear(script: _Script, body: ops.SessionRef) -> dict:
    return {"cleared": script.svc.clear(body.sessionId)}


def _provider_request(script: _Script, body: ops.ProviderRequestStep) -> dict:
    return {"payload": script.svc.provider_request(body.sessionId, body.provider, body.payload)}


def _append(script: _Script, body: ops.AppendStep) -> dict:
    entry = script.svc.log(body.sessionId).append({"type": "message", "message": body.message})
    return {"entryId": entry["id"]}


def _context(script: _Script, body: ops.ContextStep) -> dict:
    return {"messages": script.svc.context(body.sessionId, body.messages)}


def _compact(script: _Script, body: ops.SessionRef) -> dict:
    return {"messages": script.svc.compaction_input(body.sessionId)}


def _navigate(script: _Script, body: ops.NavigateStep) -> dict:
    summary = script.svc.navigate(body.sessionId, body.to)
    return {"leaf": script.svc.log(body.sessionId).leaf, "summaryInput": summary}


def _entries(script: _Script, body: ops.SessionRef) -> dict:
    return {"entries": script.svc.log(body.sessionId).branch()}


def _setting(script: _Script, body: ops.SettingStep) -> dict:
    if "toml" in body.model_fields_set:
        roles, _ = audit.settings_from_toml(body.toml)
    else:
        roles, _ = audit.audit_setting(body.auditEntries)
    script.svc.auditEntries = roles
    return {"auditEntries": list(roles)}


def _resume(script: _Script, body: ops.EmptyStep) -> dict:
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
    "context": _context,
    "compact": _compact,
    "navigate": _navigate,
    "entries": _entries,
    "setting": _setting,
    "resume": _resume,
}
"""Step kind -> its runner; the keys are exactly those of :data:`conformance.operations.envelope.STEP_MODELS`."""

_NEEDS_LOADED = frozenset(_STEP_RUNNERS) - {"globalRegistry", "globalSet", "load"}
"""Step kinds that load the extension first when no ``load`` step has run."""


@implements("envelope.session")
def session(inp: ops.SessionInput, ctx: Context) -> dict:
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
