"""The prompt envelope service (ENV-DECISION-SERVICE) and the extension's hooks around it: one
:class:`EnvelopeService` per process, its state kept per session."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from reference.envelope import audit
from reference.envelope.build import Envelope, EnvelopeRequest, build_envelope
from reference.envelope.context_files import inject_context, strip_audit
from reference.envelope.contributions import ContributionFailed, contribution_registry
from reference.envelope.globals import SERVICE_KEY, GlobalScope
from reference.envelope.payload import adapter_registry, on_provider_request
from reference.envelope.session import SessionLog, entry_messages

BUILD_FAILED_PREFIX = "System prompt build failed: "


@dataclass
class SessionState:
    """What the service remembers of one session (in memory; lost on resume).

    Attributes:
        request: the last captured request.
        envelope: the envelope in force, or ``None`` (Pi's own prompt stands).
        lastGood: the last successfully built envelope per provider id (``None`` key: unknown).
    """

    request: EnvelopeRequest
    envelope: Envelope | None = None
    lastGood: dict[str | None, Envelope] = field(default_factory=dict)


@dataclass
class CaptureResult:
    """The outcome of :meth:`EnvelopeService.capture`.

    Attributes:
        systemPrompt: what ``before_agent_start`` returns as the system prompt, or ``None`` when
            Pi's own prompt stands.
        envelope: the envelope now in force, or ``None``.
        notification: the UI notification, or ``None``.
        audit: the audit entry written, or ``None``.
    """

    systemPrompt: str | None
    envelope: Envelope | None
    notification: str | None = None
    audit: dict[str, Any] | None = None


@dataclass
class CurrentResult:
    """The outcome of :meth:`EnvelopeService.current`: the envelope (or ``None``) and, when the
    rebuild failed, the failure message."""

    envelope: Envelope | None
    failure: str | None = None


class EnvelopeService:
    """The running envelope service of one process: per session, the last captured request, the
    envelope in force and the last good envelope of each provider; it owns the hooks that use them
    (:meth:`provider_request`, ``before_provider_request``, ENV-DECISION-ADAPTERS; :meth:`context`,
    ``context``, ENV-DECISION-CONTEXT-FILES), writes audit entries to each session's
    :class:`~reference.envelope.session.SessionLog` (ENV-DECISION-AUDIT), and puts notifications in
    a list the caller reads.

    Args:
        scope: the ``globalThis`` stand-in holding the registries; the service publishes itself
            there under ``pi-developer-messages/envelope-service/v1``.
        auditEntries: the ``auditEntries`` setting (roles).
    """

    def __init__(self, scope: GlobalScope, auditEntries: Iterable[str] = audit.DEFAULT_AUDIT_ENTRIES) -> None:
        self.scope = scope
        self.auditEntries: tuple[str, ...] = tuple(auditEntries)
        self.contributions = contribution_registry(scope)
        self.adapters = adapter_registry(scope)
        self.sessions: dict[str, SessionState] = {}
        self.logs: dict[str, SessionLog] = {}
        self.notifications: list[str] = []
        self.publish()

    def publish(self) -> None:
        """Publish this service so other extensions can detect and use it.

        Clauses:
            ENV-SVC-PUBLISHED: the running service is published under
                ``pi-developer-messages/envelope-service/v1`` in the global scope
                (``getPromptEnvelopeService()`` returns it).
        """
        self.scope.objects[SERVICE_KEY] = self

    def log(self, session_id: str) -> SessionLog:
        """The session's entry tree (created empty on first use; kept across :meth:`resume`)."""
        return self.logs.setdefault(session_id, SessionLog())

    def _build(self, request: EnvelopeRequest) -> Envelope:
        return build_envelope(list(self.contributions.values()), request)

    def capture(self, request: EnvelopeRequest) -> CaptureResult:
        """Store ``request``, build and store its envelope, and write the audit entry.

        Clauses:
            ENV-SVC-CAPTURE: the request is stored (replacing the session's earlier one), the
                envelope is built and stored as the session's envelope and as the last good one for
                its provider, and the audit entry is written (see :meth:`publish_audit`).
            ENV-SVC-FAIL-NOTIFY: when the build fails, the UI is notified with
                ``System prompt build failed: MESSAGE`` (MESSAGE: what the content function raised).
            ENV-SVC-FAIL-REUSE: after a failure the last good envelope of the same session and
                provider is reused as it was.
            ENV-SVC-FAIL-NONE: with no last good envelope for that provider, Pi's own prompt stands
                (no system prompt is returned), no envelope is in force (so provider requests are
                left alone), and the context message is cleared.
            ENV-AUDIT-FAILED-BUILD: a failed build writes no audit entry.

        Raises:
            SpecError: bad request data (for example ``environment-date-invalid``).
        """
        previous = self.sessions.get(request.sessionId)
        state = SessionState(request=request, lastGood=previous.lastGood if previous else {})
        self.sessions[request.sessionId] = state
        try:
            envelope = self._build(request)
        except ContributionFailed as exc:
            notification = BUILD_FAILED_PREFIX + exc.message
            self.notifications.append(notification)
            fallback = state.lastGood.get(request.provider)
            state.envelope = fallback
            return CaptureResult(
                systemPrompt=fallback.providerInstructions if fallback else None,
                envelope=fallback,
                notification=notification,
            )
        state.envelope = envelope
        state.lastGood[request.provider] = envelope
        written = self.publish_audit(request.sessionId, envelope)
        return CaptureResult(systemPrompt=envelope.providerInstructions, envelope=envelope, audit=written)

    def publish_audit(self, session_id: str, envelope: Envelope) -> dict[str, Any] | None:
        """Append the audit entry of ``envelope`` to the session's current branch, if any.

        The items come from :func:`reference.envelope.audit.audit_items` with the setting in
        force at capture time, reduced by :func:`~reference.envelope.audit.changed_items` against
        the current branch, and written as :func:`~reference.envelope.audit.audit_entry` makes them.

        Returns:
            The stored entry (with ``id`` and ``parentId``), or ``None``.
        """
        log = self.log(session_id)
        items = audit.changed_items(audit.audit_items(envelope, self.auditEntries), log.branch())
        entry = audit.audit_entry(items)
        return log.append(entry) if entry is not None else None

    def current(
        self,
        session_id: str,
        *,
        provider: Any = ...,
        activeTools: Iterable[str] | None = None,
        cwd: str | None = None,
    ) -> CurrentResult:
        """Rebuild the session's envelope from its stored request, with overrides.

        Clauses:
            ENV-SVC-CURRENT: ``provider`` (``...`` keeps it, ``None`` makes it unknown),
                ``activeTools`` and ``cwd`` override the stored request; nothing is stored, no
                audit entry is written, no notification is sent.
            ENV-SVC-CURRENT-UNKNOWN: a session with no stored request gives no envelope.
            ENV-SVC-CURRENT-FAIL: when the rebuild fails, the result carries the failure message
                and the last good envelope of the (overridden) provider, or no envelope; still
                without notification or change of state.
        """
        state = self.sessions.get(session_id)
        if state is None:
            return CurrentResult(None)
        request = state.request.with_overrides(provider=provider, activeTools=activeTools, cwd=cwd)
        try:
            return CurrentResult(self._build(request))
        except ContributionFailed as exc:
            return CurrentResult(state.lastGood.get(request.provider), failure=exc.message)

    def clear(self, session_id: str) -> bool:
        """Forget the session.

        Clauses:
            ENV-SVC-CLEAR: the stored request is forgotten: :meth:`current` then gives nothing.
            ENV-SVC-CLEAR-MEMORY: the envelope in force and the session's last good envelopes are
                forgotten with it, so provider requests are left alone and a later failing capture
                has nothing to reuse. The session's entries are kept.

        Returns:
            Whether the session had a stored request.
        """
        return self.sessions.pop(session_id, None) is not None

    def resume(self) -> None:
        """A process restart with the same session files: in-memory state (requests, envelopes,
        last good envelopes) is lost; entries stay, so audits written before still count."""
        self.sessions.clear()

    def provider_request(self, session_id: str, provider: str | None, payload: Any) -> Any:
        """``before_provider_request``: the payload with the session's envelope applied
        (:func:`reference.envelope.payload.on_provider_request`)."""
        state = self.sessions.get(session_id)
        if state is None:
            return payload
        return on_provider_request(payload, provider, state.envelope, state.request.systemPrompt, self.adapters)

    def context(self, session_id: str, messages: list[Any] | None = None) -> list[Any]:
        """The ``context`` hook: the messages the model receives.

        Args:
            session_id: the session.
            messages: the messages Pi passes in; ``None`` means the session's current branch.

        See :func:`reference.envelope.context_files.inject_context`.
        """
        if messages is None:
            messages = entry_messages(self.log(session_id).branch())
        state = self.sessions.get(session_id)
        message = state.envelope.contextMessage if state and state.envelope else None
        return inject_context(messages, message)

    def compaction_input(self, session_id: str) -> list[Any]:
        """The messages handed to compaction: the current branch without audit entries
        (:func:`reference.envelope.context_files.strip_audit`)."""
        return strip_audit(entry_messages(self.log(session_id).branch()))

    def navigate(self, session_id: str, entry_id: str | None) -> list[Any]:
        """Move the session's leaf to ``entry_id`` and return the tree-summary input: the
        abandoned entries' messages without audit entries
        (:func:`reference.envelope.context_files.strip_audit`).

        Raises:
            SpecError: ``session-entry-unknown``.
        """
        return strip_audit(entry_messages(self.log(session_id).navigate(entry_id)))
