"""pi.convert-to-llm -- PI-CONVERT-BASH-CANCEL, PI-CONVERT-BASH-EXIT.
Bug: the exit-code note and the cancel note are two independent ifs, so a cancelled command with a non-zero exit code gets both notes."""

from reference.pi.core import convert
from tests.blind.common import everywhere, swapped

_original = convert.bash_execution_to_text


def _text(message):
    text = _original(message)
    code = message.get("exitCode")
    if message["cancelled"] and code is not None and code != 0:
        note = "\n\n(command cancelled)"
        text = text.replace(note, note + f"\n\nCommand exited with code {convert.js_number(code)}", 1)
    return text


def handle(msg, call):
    with swapped(everywhere(_original, _text)):
        return call()
