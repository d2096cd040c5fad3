"""One turn's envelope, built from one request (ENV-DECISION-*)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from reference.envelope.context_files import ContextFile, context_message
from reference.envelope.contributions import (
    Contribution,
    DeveloperMessage,
    RenderContext,
    compose_contributions,
)
from reference.envelope.environment import HostFacts, environment_message
from reference.envelope.instructions import provider_instructions


@dataclass(frozen=True)
class EnvelopeRequest:
    """Everything one build needs, as Pi's ``before_agent_start`` and the host provide it.

    Attributes:
        sessionId: the session id.
        provider: the provider id, or ``None`` when unknown.
        activeTools: names of the active tools.
        prompt: the user's prompt.
        systemPrompt: Pi's built system prompt (``None`` when there is none).
        systemPromptOptions: Pi's options; ``customPrompt``, ``appendSystemPrompt`` and
            ``contextFiles`` (list of ``{path, content}``) are read, everything is passed to
            content functions.
        cwd: the session's working directory.
        agentDir: Pi's agent directory (for the context-files divider), or ``None``.
        host: platform, shell variables, available shells, local date and time zone.
    """

    sessionId: str
    provider: str | None
    activeTools: tuple[str, ...]
    prompt: str
    systemPrompt: str | None
    systemPromptOptions: Mapping[str, Any]
    cwd: str
    agentDir: str | None
    host: HostFacts

    def with_overrides(
        self,
        *,
        provider: Any = ...,
        activeTools: Iterable[str] | None = None,
        cwd: str | None = None,
    ) -> "EnvelopeRequest":
        """A copy with ``provider`` (``...`` keeps it; ``None`` makes it unknown), ``activeTools``
        or ``cwd`` replaced (``None`` keeps them)."""
        changes: dict[str, Any] = {}
        if provider is not ...:
            changes["provider"] = provider
        if activeTools is not None:
            changes["activeTools"] = tuple(activeTools)
        if cwd is not None:
            changes["cwd"] = cwd
        return replace(self, **changes)

    @property
    def contextFiles(self) -> list[ContextFile]:
        """``systemPromptOptions.contextFiles`` as :class:`ContextFile` items, in Pi's order."""
        files = self.systemPromptOptions.get("contextFiles") or []
        return [ContextFile(path=f["path"], content=f["content"]) for f in files]

    def render_context(self) -> RenderContext:
        """The render context that content functions receive for this request: Pi's
        ``systemPromptOptions`` unchanged, every key included (ENV-RENDER-OPTIONS)."""
        return RenderContext(
            provider=self.provider,
            activeTools=tuple(self.activeTools),
            sessionId=self.sessionId,
            prompt=self.prompt,
            systemPromptOptions=self.systemPromptOptions,
        )


@dataclass(frozen=True)
class Envelope:
    """What a model receives for one turn besides the history.

    Attributes:
        provider: the provider the envelope was built for (``None`` when unknown).
        providerInstructions: the system instructions.
        developerMessages: contributions then ``environment``, in order.
        contextMessage: the hidden context-files message, or ``None``.
    """

    provider: str | None
    providerInstructions: str
    developerMessages: tuple[DeveloperMessage, ...]
    contextMessage: dict[str, Any] | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        """``{provider, providerInstructions, developerMessages: [{id, content}], contextMessage}``."""
        return {
            "provider": self.provider,
            "providerInstructions": self.providerInstructions,
            "developerMessages": [m.to_json() for m in self.developerMessages],
            "contextMessage": self.contextMessage,
        }


def developer_messages(
    contributions: Iterable[Contribution], request: EnvelopeRequest
) -> list[DeveloperMessage]:
    """The developer messages of one turn.

    Clauses:
        ENV-ENV-LAST: the message with id ``environment`` is always present (never filtered,
            never dropped) and is appended after every contribution, whatever their ids and
            priorities.

    Raises:
        ContributionFailed: a content function raised.
        SpecError: ``environment-date-invalid``.
    """
    messages = compose_contributions(contributions, request.render_context())
    messages.append(environment_message(request.cwd, request.host, request.activeTools))
    return messages


def build_envelope(contributions: Iterable[Contribution], request: EnvelopeRequest) -> Envelope:
    """Build the envelope of ``request`` from the registry's current ``contributions``.

    Clauses:
        ENV-REGISTRY-LIVE: the registry is read at every build, so a contribution registered (or
            put into the shared map) after the extension loaded takes part in the next build.

    Raises:
        ContributionFailed: a content function raised (the service turns this into a notification).
    """
    opts = request.systemPromptOptions
    return Envelope(
        provider=request.provider,
        providerInstructions=provider_instructions(
            request.systemPrompt, opts.get("customPrompt"), opts.get("appendSystemPrompt")
        ),
        developerMessages=tuple(developer_messages(list(contributions), request)),
        contextMessage=context_message(request.cwd, request.contextFiles, request.agentDir),
    )
