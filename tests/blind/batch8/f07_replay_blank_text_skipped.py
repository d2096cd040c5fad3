"""pi.replay-system -- PI-REPLAY-CONTENT-APPEND.
Bug: a system message whose text is only white space is taken for empty and adds nothing, where
only an empty text should add nothing.
"""

from __future__ import annotations

from reference.pi.core import replay

from tests.blind.common import everywhere, swapped


def _append_content(state, message):
    text = replay.message_text(message["content"])
    if text.strip():
        state.content.append(text)


def handle(msg, call):
    with swapped(everywhere(replay.append_content, _append_content)):
        return call()

# shown on: {"input": {"messages": [{"role": "system", "content": "A", "timestamp": 1}, {"role": "system", "content": "   ", "timestamp": 2}, {"role": "system", "content": "B", "timestamp": 3}]}}
