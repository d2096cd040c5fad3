"""Reference handlers of the stateless envelope operations (see :mod:`conformance.operations.envelope`).

A thin mapping onto :mod:`reference.envelope`; declarative contribution content is turned into
Python content functions by :mod:`conformance.adapters.reference.envelope_models`. Session scripts
run in :mod:`conformance.adapters.reference.envelope_session`.
"""

from __future__ import annotations

from typing import Any

from conformance.adapters.reference import Context, implements
from conformance.adapters.reference.envelope_models import system_prompt_options, to_contribution, to_files, to_host, to_request
from conformance.operations import envelope as ops
from conformance.operations.envelope_models import ContributionSpec
from reference.envelope import audit
from reference.envelope.build import EnvelopeRequest, build_envelope, developer_messages
from reference.envelope.context_files import context_message, inject_context
from reference.envelope.contributions import ContributionFailed, contribution_registry, register_contribution
from reference.envelope.environment import environment_message
from reference.envelope.globals import GlobalScope, SharedRegistry
from reference.envelope.instructions import provider_instructions
from reference.errors import SpecError


def _register_all(registry: SharedRegistry, specs: list[ContributionSpec]) -> list[dict[str, Any]]:
    """Register ``specs`` in order; a refused one is reported as ``{index, code}`` and skipped
    (ENV-OP-REFUSED: the others register as if it had not been given)."""
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
        prompt=inp.prompt, systemPrompt=None, systemPromptOptions=system_prompt_options(inp.systemPromptOptions),
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
    return {"auditEntries": list(roles), "toml": audit.settings_to_toml(roles), "ignored": bool(diagnostics),
            "diagnostics": diagnostics}
