"""pi.replay-system -- PI-REPLAY-CONTENT-APPEND.
Bug: a system message's instruction text is appended even when it is empty, so a message with content "" (or no text block) leaves an empty part and a doubled "\n\n" between its neighbours."""

from reference.pi.core import replay
from tests.blind.common import everywhere, swapped


def _append(state, message):
    state.content.append(replay.message_text(message["content"]))


def handle(msg, call):
    with swapped(everywhere(replay.append_content, _append)):
        return call()
