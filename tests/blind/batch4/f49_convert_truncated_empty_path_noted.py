"""pi.convert-to-llm -- PI-CONVERT-BASH-TRUNCATED.
Bug: the truncation note is added whenever truncated is true and fullOutputPath is present, so an empty path gives "[Output truncated. Full output: ]"."""

from reference.pi.core import convert
from tests.blind.common import everywhere, swapped

_original = convert.bash_execution_to_text


def _text(message):
    text = _original(message)
    if message.get("truncated") and message.get("fullOutputPath") == "":
        text += "\n\n[Output truncated. Full output: ]"
    return text


def handle(msg, call):
    with swapped(everywhere(_original, _text)):
        return call()
