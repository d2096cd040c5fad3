"""Provider payload adapters (ENV-DECISION-ADAPTERS): how an envelope is applied to a provider's own
request format, the suite's probe adapter and an example Responses-style one. Adapters never
mutate the payload they receive: they return a new one."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Protocol, Sequence, runtime_checkable

from reference.envelope.build import Envelope
from reference.envelope.contributions import DeveloperMessage
from reference.text import js_trim
from reference.envelope.globals import ADAPTERS_KEY, PROCESS_SCOPE, GlobalScope, SharedRegistry, install_registry
from reference.errors import SpecError


@runtime_checkable
class PayloadAdapter(Protocol):
    """The adapter capability (the pi-developer-messages README 'Provider adapters'): it lets the
    envelope reach a provider's own request format; provider packages register one per provider
    id in the process-global adapter registry. An adapter never mutates the payload it receives:
    it returns a new one.

    ``provider`` is the provider id. ``replace_developer_messages`` is optional: an adapter without
    it sets ``has_developer_messages = False`` (or does not define the method). A replace method may
    return ``None``, which means "the payload I was given, unchanged".
    """

    provider: str

    def read_system_prompt(self, payload: Any) -> str | None:
        """The system prompt held by ``payload``, or ``None`` when it has none that can be read."""

    def replace_system_prompt(self, payload: Any, system_prompt: str) -> Any:
        """``payload`` with its system prompt replaced (or ``None``: the payload given, unchanged)."""


def supports_developer_messages(adapter: Any) -> bool:
    """Whether ``adapter`` has ``replaceDeveloperMessages``."""
    return callable(getattr(adapter, "replace_developer_messages", None)) and getattr(
        adapter, "has_developer_messages", True
    )


def adapter_registry(scope: GlobalScope | None = None) -> SharedRegistry:
    """The process-global adapter registry of ``scope`` (default: this process).

    Published under ``pi-developer-messages/provider-payload-adapters/v1`` by
    :func:`reference.envelope.globals.install_registry`, like the contribution registry.
    """
    return install_registry(scope or PROCESS_SCOPE, ADAPTERS_KEY)


def register_adapter(registry: SharedRegistry, adapter: Any) -> None:
    """Register ``adapter`` for its provider id.

    Clauses:
        ENV-ADAPTER-PROVIDER: ``provider`` is required; a missing, empty or blank provider is
            refused (``adapter-provider-blank``).
        ENV-ADAPTER-REPLACE: one adapter per provider id; a later registration for the same provider
            replaces the earlier one.

    Raises:
        SpecError: ``adapter-provider-blank``.
    """
    provider = getattr(adapter, "provider", None)
    if not isinstance(provider, str) or not js_trim(provider):
        raise SpecError("adapter-provider-blank", "adapter.provider is required and must not be blank", path="adapter.provider")
    registry[provider] = adapter


def apply_envelope(payload: Any, adapter: Any, original_prompt: str | None, envelope: Envelope) -> Any:
    """The payload after the envelope is applied through ``adapter``.

    Clauses:
        ENV-PAYLOAD-SYSTEM: the system prompt is replaced with the envelope's provider instructions
            only when ``readSystemPrompt`` returns exactly Pi's original prompt; otherwise (someone
            else changed it, or it cannot be read) the system prompt is left as it is.
        ENV-PAYLOAD-DEVELOPER: whether or not the system prompt matched, an adapter with
            ``replaceDeveloperMessages`` receives the payload (with the new system prompt when it
            was replaced) and the envelope's developer messages in order (environment last).
        ENV-PAYLOAD-TOGETHER: both changes stand together: the developer step works on the payload
            the system step returned, and a replace method that returns nothing keeps the payload it
            was given, so the system-prompt replacement is never lost.
        ENV-PAYLOAD-NO-USER: developer messages reach the payload only through
            ``replaceDeveloperMessages``; without it they are left out, never added as user
            messages.
        ENV-PAYLOAD-ORIGINAL: Pi's original prompt is the ``systemPrompt`` of the captured request
            (the prompt Pi built, before any override); a payload that already carries the composed
            instructions instead does not match it (unless the two are equal).

    Args:
        payload: the provider payload (JSON data), not mutated.
        adapter: the provider's adapter.
        original_prompt: Pi's original system prompt of the captured request (``None`` when Pi
            had none; a payload prompt never equals ``None``).
        envelope: the captured envelope.
    """
    result = payload
    current = adapter.read_system_prompt(payload)
    if original_prompt is not None and current is not None and current == original_prompt:
        replaced = adapter.replace_system_prompt(payload, envelope.providerInstructions)
        if replaced is not None:
            result = replaced
    if supports_developer_messages(adapter):
        with_developer = adapter.replace_developer_messages(result, list(envelope.developerMessages))
        if with_developer is not None:
            result = with_developer
    return result


def on_provider_request(
    payload: Any,
    provider: str | None,
    envelope: Envelope | None,
    original_prompt: str | None,
    registry: SharedRegistry,
) -> Any:
    """The payload Pi sends for one provider request (``before_provider_request``).

    Clauses:
        ENV-PAYLOAD-PRECONDITION: nothing changes unless an envelope was captured for this session
            and built for this provider, and an adapter is registered for this provider.

    Args:
        payload: what Pi is about to send.
        provider: the request's provider id (``None`` when unknown).
        envelope: the session's stored envelope, or ``None``.
        original_prompt: Pi's original system prompt of the stored request.
        registry: the adapter registry (read at every request).
    """
    if envelope is None or provider is None or envelope.provider != provider:
        return payload
    adapter = registry.get(provider)
    if adapter is None:
        return payload
    return apply_envelope(payload, adapter, original_prompt, envelope)


PROBE_DEVELOPER_MODES = ("replace", "absent", "return-input", "return-nothing")


@dataclass
class ProbeAdapter:
    """The suite's probe adapter over the probe payload (clause ENV-PROBE); every implementation
    under test provides the same adapter.

    The probe payload is a JSON object ``{"system": string | null, "developer": [{"id",
    "content"}], "messages": [...]}`` (other keys allowed and kept). ``readSystemPrompt`` returns
    ``system`` when it is a string, else nothing; ``replaceSystemPrompt`` returns a copy with
    ``system`` set; ``replaceDeveloperMessages`` returns a copy whose ``developer`` list is exactly
    the given messages, as ``{id, content}``, in order. ``messages`` is never touched.

    Attributes:
        provider: the provider id it is registered for.
        developerMessages: how ``replaceDeveloperMessages`` behaves: ``"replace"`` (sets
            ``developer``), ``"absent"`` (the adapter has no such method), ``"return-input"``
            (returns the payload it was given, unchanged), ``"return-nothing"`` (returns nothing).
    """

    provider: str
    developerMessages: str = "replace"

    @property
    def has_developer_messages(self) -> bool:
        """Whether the adapter offers ``replaceDeveloperMessages`` (every mode but ``absent``)."""
        return self.developerMessages != "absent"

    def read_system_prompt(self, payload: Any) -> str | None:
        """``payload["system"]`` when it is a string, else ``None``."""
        if isinstance(payload, dict) and isinstance(payload.get("system"), str):
            return payload["system"]
        return None

    def replace_system_prompt(self, payload: Any, system_prompt: str) -> Any:
        """A deep copy of ``payload`` with ``system`` set."""
        result = copy.deepcopy(payload)
        result["system"] = system_prompt
        return result

    def replace_developer_messages(self, payload: Any, messages: Sequence[DeveloperMessage]) -> Any:
        """Per ``developerMessages``: a deep copy whose ``developer`` is ``[{id, content}]`` of ``messages`` (``replace``), the payload given (``return-input``) or ``None`` (``return-nothing``)."""
        if self.developerMessages == "return-input":
            return payload
        if self.developerMessages == "return-nothing":
            return None
        result = copy.deepcopy(payload)
        result["developer"] = [m.to_json() for m in messages]
        return result


@dataclass
class ResponsesAdapter:
    """Example adapter for an OpenAI Responses-style payload; it is not used by the suite.

    The payload is ``{"instructions": string, "input": [item, ...], ...}``. The system prompt is
    ``instructions``. Developer messages become native developer-role items
    ``{"type": "message", "role": "developer", "content": [{"type": "input_text", "text": ...}]}``
    placed, in order, before every other item; developer-role items already in ``input`` are
    removed first so that a retried request does not carry them twice. No item with another role is
    added or changed.
    """

    provider: str = "openai-codex"

    def read_system_prompt(self, payload: Any) -> str | None:
        """``payload["instructions"]`` when it is a string, else ``None``."""
        if isinstance(payload, dict) and isinstance(payload.get("instructions"), str):
            return payload["instructions"]
        return None

    def replace_system_prompt(self, payload: Any, system_prompt: str) -> Any:
        """A deep copy of ``payload`` with ``instructions`` set."""
        result = copy.deepcopy(payload)
        result["instructions"] = system_prompt
        return result

    def replace_developer_messages(self, payload: Any, messages: Sequence[DeveloperMessage]) -> Any:
        """A deep copy whose ``input`` starts with one developer-role item per message, earlier developer items removed."""
        result = copy.deepcopy(payload)
        items = [i for i in result.get("input") or [] if not (isinstance(i, dict) and i.get("role") == "developer")]
        developer = [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": m.content}]}
            for m in messages
        ]
        result["input"] = developer + items
        return result
