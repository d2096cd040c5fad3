"""What the 1.6.0 pages change in the message types: each edition's message models.

Kept apart from :mod:`reference.pi.core.editions`, which only names the editions, so that what
judges by an edition without messages does not build the message models.
"""

from __future__ import annotations

from typing import Any, Literal

from reference.pi.core.editions import PI_160, check_edition
from reference.pi.core.messages import (
    MESSAGE_MODELS,
    AssistantMessage,
    Count,
    SystemMessage,
    ToolResultMessage,
    _Strict,
)

#: Pi's thinking levels as the 1.6.0 pages name them (PI-160-MSG-THINKING-LEVEL).
ThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh", "max"]


class SystemMessage160(SystemMessage):
    """``role: "system"`` as the 1.6.0 page types it: no ``replace`` field, so a ``replace`` is an
    unknown field, tolerated and not examined (PI-160-MSG-SYSTEM-NO-REPLACE)."""

    replace: Any = None


class AssistantMessage160(AssistantMessage):
    """``role: "assistant"`` with the 1.6.0 page's optional ``thinkingLevel``, one of Pi's thinking
    levels (PI-160-MSG-THINKING-LEVEL)."""

    thinkingLevel: ThinkingLevel = None  # type: ignore[assignment]


class NestedToolCallRecord(_Strict):
    """One call a tool made to another tool (PI-160-MSG-NESTED-CALLS): ``id``, ``name`` strings,
    ``arguments?`` an object, ``argumentsBytes?`` and ``durationMs?`` numbers of zero or more,
    ``status`` ``ok``/``error``/``unfinished``, ``error?`` a string."""

    id: str
    name: str
    arguments: dict[str, Any] = None  # type: ignore[assignment]
    argumentsBytes: Count = None  # type: ignore[assignment]
    status: Literal["ok", "error", "unfinished"]
    durationMs: Count = None  # type: ignore[assignment]
    error: str = None  # type: ignore[assignment]


class NestedToolCalls(_Strict):
    """``{calls: NestedToolCallRecord[], complete: boolean}`` (PI-160-MSG-NESTED-CALLS)."""

    calls: list[NestedToolCallRecord]
    complete: bool


class ToolResultMessage160(ToolResultMessage):
    """``role: "toolResult"`` with the 1.6.0 page's optional ``nestedCalls``
    (PI-160-MSG-NESTED-CALLS)."""

    nestedCalls: NestedToolCalls = None  # type: ignore[assignment]


_MODELS_160 = {**MESSAGE_MODELS, "system": SystemMessage160, "assistant": AssistantMessage160,
               "toolResult": ToolResultMessage160}


def message_models(edition: str | None) -> dict[str, type[_Strict]]:
    """The model of each role the ``edition``'s page lists (``None``: ``pi-0.99.4``).

    Raises ``ValueError`` for an unknown edition."""
    return _MODELS_160 if check_edition(edition) == PI_160 else MESSAGE_MODELS
