"""Reference handlers of the envelope operations (see :mod:`conformance.operations.envelope`).

Declarative contribution content is turned into Python content functions here; everything else is
a thin mapping onto :mod:`reference.envelope`. Session scripts run in
:mod:`conformance.adapters.reference.envelope_session`.
"""

from __future__ import annotations

import re
from typing import Any, Callable

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
)
from reference.envelope.environment import HostFacts, environment_message
from reference.envelope.globals import GlobalScope, SharedRegistry
from reference.envelope.instructions import provider_instructions
from reference.errors import SpecError

# --- declarative content ----------------------------------------------------------------------


def _option_text(options: Any, key: str) -> str:
    value = options.get(key) if hasattr(options, "get") else None
    return value if isinstance(value, str) else ""


def _template(text: str) -> Callable[[RenderContext], str]:
    def render(ctx: RenderContext) -> str:
        options = ctx.systemPromptOptions
        values = {
            "provider": ctx.provider or "",
            "sessionId": ctx.sessionId,
            "prompt": ctx.prompt,
            "activeTools": ",".join(ctx.activeTools),
            "customPrompt": _option_text(options, "customPrompt"),
            "cwd": _option_text(options, "cwd"),
        }

        def value(match: re.Match[str]) -> str:
            name = match.group(1)
            if name.startswith(ops.OPTION_PLACEHOLDER):
                return _option_text(options, name[len(ops.OPTION_PLACEHOLDER):])
            return values[name]

        return ops._PLACEHOLDER.sub(value, text)

    return render


def _condition(cond: ops.PromptCondition) -> Callable[[RenderContext], bool]:
    if "promptContains" in cond.model_fields_set:
        needle = cond.promptContains or ""
        return lambda ctx: needle in ctx.prompt
    if "promptEquals" in cond.model_fields_set:
        expected = cond.promptEquals
        return lambda ctx: ctx.prompt == expected
    want = bool(cond.promptEmpty)
    return lambda ctx: (ctx.prompt == "") == want


def content_function(spec: ops.Content) -> Any:
    """The reference content (string, ``None`` or function) of a declarative content spec."""
    if spec is None or isinstance(spec, str):
        return spec
    if isinstance(spec, ops.ReturnsContent):
        fixed = spec.returns
        return lambda ctx: fixed
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


def _options(options: ops.SystemPromptOptions) -> dict[str, Any]:
    """Pi's system-prompt options as content functions receive them (free keys included)."""
    return options.model_dump(mode="json")


def to_request(req: ops.CaptureRequest, default_host: ops.Host | None) -> EnvelopeRequest:
    """The reference request; ``host`` falls back to ``default_host``.

    Raises:
        SpecError: ``request-host-missing`` when neither gives a host.
    """
    host = req.host or default_host
    if host is None:
        raise SpecError("request-host-missing", "request.host is required", path="request.host")
    options = _options(req.systemPromptOptions)
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


def _register_all(registry: SharedRegistry, specs: list[ops.ContributionSpec]) -> list[dict[str, Any]]:
    """Register ``specs`` in order; a refused one is reported as ``{index, code}`` and skipped."""
    refused: list[dict[str, Any]] = []
    for i, spec in enumerate(specs):
        try:
            register_contribution(registry, to_contribution(spec))
        except SpecError as exc:
            refused.append({"index": i, "code": exc.code})
    return refused


def _with_refused(answer: dict[str, Any], refused: list[dict[str, Any]]) -> dict[str, Any]:
    return {**answer, "refused": refused}


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
    refused = _register_all(registry, inp.contributions)
    request = EnvelopeRequest(
        sessionId=inp.sessionId, provider=inp.provider, activeTools=tuple(inp.activeTools),
        prompt=inp.prompt, systemPrompt=None, systemPromptOptions=_options(inp.systemPromptOptions),
        cwd=inp.cwd, agentDir=None, host=to_host(inp.host),
    )
    try:
        messages = developer_messages(list(registry.values()), request)
    except ContributionFailed as exc:
        raise _failed(exc) from exc
    return _with_refused({"messages": [m.to_json() for m in messages]}, refused)


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
    refused = _register_all(registry, inp.contributions)
    try:
        envelope = build_envelope(list(registry.values()), to_request(inp.request, None))
    except ContributionFailed as exc:
        raise _failed(exc) from exc
    return _with_refused(envelope.to_json(), refused)


@implements("envelope.settings")
def settings(inp: ops.SettingsInput, ctx: Context) -> dict:
    """``envelope.settings``."""
    roles, diagnostics = audit.settings_from_toml(inp.toml)
    return {"auditEntries": list(roles), "toml": audit.settings_to_toml(roles), "ignored": bool(diagnostics)}
