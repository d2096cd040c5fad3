"""System-message replay (Pi's docs "SystemMessage", PI-DECISION-MESSAGES).

The leading system message declares the prompt and the tools; each later system message changes
them. Replaying every system message of a transcript in order yields the current state, a
:class:`SystemState`, and :func:`render_system_prompt` gives its prompt text. Messages of any other
role are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reference.pi.core.messages import require_valid_messages


@dataclass
class SystemState:
    """The replayed system state.

    Attributes:
        content: the non-empty instruction texts in the order they were given.
        sections: section name -> text, in section order.
        tools: tool name -> tool definition (the JSON object as given), in tool order.
    """

    content: list[str] = field(default_factory=list)
    sections: dict[str, str] = field(default_factory=dict)
    tools: dict[str, dict] = field(default_factory=dict)


def message_text(content: str | list[dict]) -> str:
    """The instruction text of one system message's ``content``.

    A string is used as is; an array gives the ``text`` of its text blocks joined by ``\\n``.
    Implements PI-REPLAY-CONTENT-BLOCKS.
    """
    if isinstance(content, str):
        return content
    return "\n".join(block["text"] for block in content if block.get("type") == "text")


def append_content(state: SystemState, message: dict) -> None:
    """Append a system message's instruction text to the state; an empty text adds nothing.

    Implements PI-REPLAY-CONTENT-APPEND (the parts are joined by ``\\n\\n`` when rendered).
    """
    text = message_text(message["content"])
    if text:
        state.content.append(text)


def apply_sections(state: SystemState, sections: dict[str, Any] | None) -> None:
    """Apply one message's ``sections`` patch, entry by entry in the object's order.

    A string sets the named section: an existing name keeps its place, a new name (or one
    removed earlier) goes last. ``null`` removes the section; removing an absent name does
    nothing. Implements PI-REPLAY-SECTION-SET, PI-REPLAY-SECTION-REMOVE, PI-REPLAY-SECTION-READD
    and PI-REPLAY-SECTION-ORDER (new names in the order they stand in the message).
    """
    for name, text in (sections or {}).items():
        if text is None:
            state.sections.pop(name, None)
        else:
            state.sections[name] = text


def apply_tools(state: SystemState, message: dict) -> None:
    """Apply one message's tool changes: every ``toolsRemoved`` name first, then every
    ``toolsAdded`` definition, by name.

    An added name not present goes last; an added name already present has its definition
    replaced in place (PI-REPLAY-TOOLS-REDEFINE). Removing an absent name does nothing.
    Implements PI-REPLAY-TOOLS.
    """
    for ref in message.get("toolsRemoved") or []:
        state.tools.pop(ref["name"], None)
    for tool in message.get("toolsAdded") or []:
        state.tools[tool["name"]] = tool


def start_baseline(state: SystemState, message: dict) -> SystemState:
    """The state a system message starts from: a fresh, empty state when it has
    ``replace: true`` (it then establishes a complete new baseline), else ``state``.

    Implements PI-REPLAY-REPLACE.
    """
    return SystemState() if message.get("replace") is True else state


def replay_system_messages(messages: list[Any], *, replace: bool = True) -> SystemState:
    """Replay every system message of ``messages`` in order.

    Args:
        messages: agent messages as JSON data; messages of other roles are skipped
            (PI-REPLAY-NON-SYSTEM) without being examined.
        replace: whether ``replace: true`` starts a new baseline (:func:`start_baseline`):
            edition pi-0.99.4; ``False`` for pi-1.6.0, whose page has no ``replace``
            (PI-160-MSG-SYSTEM-NO-REPLACE).

    Returns:
        the current :class:`SystemState` (empty when there is no system message).

    Raises:
        SpecError: ``message-invalid`` when a system message is malformed, naming its path
            (``messages[2].sections.rules``), PI-MSG-REFUSE-INVALID.
    """
    require_valid_messages(messages, roles={"system"})
    state = SystemState()
    for message in messages:
        if not (isinstance(message, dict) and message.get("role") == "system"):
            continue
        if replace:
            state = start_baseline(state, message)
        append_content(state, message)
        apply_sections(state, message.get("sections"))
        apply_tools(state, message)
    return state


def render_system_prompt(state: SystemState) -> str:
    """The prompt text of a replayed state: the instruction texts, then the section texts, each
    part non-empty, joined by ``\\n\\n`` (empty string when nothing is left).

    Implements PI-REPLAY-RENDER.
    """
    parts = ["\n\n".join(state.content), *state.sections.values()]
    return "\n\n".join(part for part in parts if part)
