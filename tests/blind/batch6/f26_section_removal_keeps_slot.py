"""pi.replay-system -- PI-REPLAY-SECTION-READD.
Bug: null marks a section as removed but keeps its slot (JavaScript's `sections[name] = undefined`
instead of `delete`), so a section set again after its removal comes back at its old place, not last.
"""

from __future__ import annotations

from reference.pi.core import replay
from reference.pi.core.messages import require_valid_messages

from tests.blind.common import everywhere, swapped


def _replay_system_messages(messages, *, replace: bool = True):
    require_valid_messages(messages, roles={"system"})
    state = replay.SystemState()
    slots: dict = {}
    for message in messages:
        if not (isinstance(message, dict) and message.get("role") == "system"):
            continue
        if replace and message.get("replace") is True:
            state, slots = replay.SystemState(), {}
        replay.append_content(state, message)
        for name, text in (message.get("sections") or {}).items():
            if text is None:
                if name in slots:
                    slots[name] = None
            else:
                slots[name] = text
        state.sections = {name: text for name, text in slots.items() if text is not None}
        replay.apply_tools(state, message)
    return state


def handle(msg, call):
    with swapped(everywhere(replay.replay_system_messages, _replay_system_messages)):
        return call()
