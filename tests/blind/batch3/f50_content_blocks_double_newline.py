r"""pi.replay-system -- PI-REPLAY-CONTENT-BLOCKS.
Bug: the text blocks of an array content are joined with "\n\n" (as whole messages are) instead of "\n"."""

from reference.pi.core import replay
from tests.blind.common import everywhere, swapped


def _text(content):
    if isinstance(content, str):
        return content
    return "\n\n".join(block["text"] for block in content if block.get("type") == "text")


def handle(msg, call):
    with swapped(everywhere(replay.message_text, _text)):
        return call()
