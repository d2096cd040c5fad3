"""Operations over Pi's message types (Pi's docs "Message Types", PI-DECISION-MESSAGES,
PI-DECISION-CONVERSION): validate a message, replay system messages, convert to model messages.
Messages are plain JSON, exactly as Pi holds them in memory or in session files (timestamps in
Unix milliseconds)."""

from __future__ import annotations

from typing import Any

from conformance.operations.base import OpModel, operation

# --------------------------------------------------------------------------------------------
# pi.validate-message
# --------------------------------------------------------------------------------------------


class ValidateMessageInput(OpModel):
    """One message and what it is checked for.

    Attributes:
        message: the message (any JSON value).
        persist: ``true`` (default) to check it for persistence in a session file, where a
            streamed ``pending`` assistant message is refused; ``false`` for a message in flight.
    """

    message: Any = None
    persist: bool = True


class MessageProblem(OpModel):
    """One problem: ``path`` (a JSON path from ``$``) and ``code`` (``missing``, ``wrong-type``,
    ``invalid-value``, ``negative``, ``not-finite``, ``exceeds-cache-write``, ``exceeds-output``,
    ``pending-not-persistable``)."""

    path: str
    code: str


class ValidateMessageOutput(OpModel):
    """The verdict.

    Attributes:
        valid: no problem was found.
        role: the message's ``role`` when it is a string, else ``null``.
        known: the role is one Pi's docs list (others are opaque and valid).
        problems: every problem, sorted by path (indices numerically, keys by code point),
            then by code.
    """

    valid: bool
    role: str | None
    known: bool
    problems: list[MessageProblem]


VALIDATE_MESSAGE = operation(
    "pi.validate-message",
    input=ValidateMessageInput,
    output=ValidateMessageOutput,
    summary="Validate one agent message: each problem with its JSON path and a stable code (PI-DECISION-MESSAGES).",
)

# --------------------------------------------------------------------------------------------
# pi.replay-system
# --------------------------------------------------------------------------------------------


class ReplaySystemInput(OpModel):
    """A transcript: agent messages in order (messages of other roles than ``system`` are skipped)."""

    messages: list[Any]


class ReplayedSection(OpModel):
    """One named section of the replayed prompt."""

    name: str
    text: str


class ReplaySystemOutput(OpModel):
    """The state after replaying every system message.

    Attributes:
        content: the instruction texts, joined by ``\\n\\n``.
        sections: the sections in order (a list, so that no JSON object reorders names).
        tools: the tool definitions in order, each exactly as it was added.
        prompt: the rendered prompt text (content, then non-empty sections, joined by ``\\n\\n``).
    """

    content: str
    sections: list[ReplayedSection]
    tools: list[dict[str, Any]]
    prompt: str


REPLAY_SYSTEM = operation(
    "pi.replay-system",
    input=ReplaySystemInput,
    output=ReplaySystemOutput,
    summary="Replay system messages: appended content, named sections, tools, the rendered prompt (PI-DECISION-MESSAGES).",
)

# --------------------------------------------------------------------------------------------
# pi.convert-to-llm
# --------------------------------------------------------------------------------------------


class ConvertToLlmInput(OpModel):
    """Agent messages in transcript order."""

    messages: list[Any]


class ConvertToLlmOutput(OpModel):
    """The model messages, in order (what Pi's ``convertToLlm`` returns)."""

    messages: list[dict[str, Any]]


CONVERT_TO_LLM = operation(
    "pi.convert-to-llm",
    input=ConvertToLlmInput,
    output=ConvertToLlmOutput,
    summary="Convert agent messages to model messages: coding-agent roles become user messages (PI-DECISION-CONVERSION).",
)

__all__ = [
    "ValidateMessageInput",
    "ValidateMessageOutput",
    "MessageProblem",
    "ReplaySystemInput",
    "ReplaySystemOutput",
    "ReplayedSection",
    "ConvertToLlmInput",
    "ConvertToLlmOutput",
]
