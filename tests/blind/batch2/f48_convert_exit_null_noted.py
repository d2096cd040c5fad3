"""pi.convert-to-llm -- PI-CONVERT-BASH-EXIT, PI-MSG-BASH-EXITCODE-NULL.
Bug: the exit note is added when exitCode !== undefined && exitCode !== 0, so a null exit code gives "Command exited with code null"."""

from reference.pi.core import convert
from tests.blind.common import swapped

ORIGINAL = convert.bash_execution_to_text


def bash_text(message):
    text = ORIGINAL(message)
    if "exitCode" in message and message["exitCode"] is None and not message["cancelled"]:
        note = "\n\nCommand exited with code null"
        marker = "\n\n[Output truncated."
        at = text.find(marker)
        text = text + note if at < 0 else text[:at] + note + text[at:]
    return text


def handle(msg, call):
    with swapped([(convert, "bash_execution_to_text", bash_text)]):
        return call()
