"""The reference's values of the envelope operations' shared models
(:mod:`conformance.operations.envelope_models`): declarative contribution content turned into
Python content functions, contributions, host facts, context files and one turn's request.

Used by the handlers of :mod:`conformance.adapters.reference.envelope` and
:mod:`conformance.adapters.reference.envelope_session`; it registers no handler, and imports
neither's operation models.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from conformance.operations import envelope_models as ops
from reference.envelope.build import EnvelopeRequest
from reference.envelope.context_files import ContextFile
from reference.envelope.contributions import Contribution, RenderContext
from reference.envelope.environment import HostFacts
from reference.errors import SpecError


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

        return ops.PLACEHOLDER.sub(value, text)

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


def system_prompt_options(options: ops.SystemPromptOptions) -> dict[str, Any]:
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
    options = system_prompt_options(req.systemPromptOptions)
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
