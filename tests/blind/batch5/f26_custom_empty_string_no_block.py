"""pi.convert-to-llm -- PI-CONVERT-CUSTOM.
Bug: a custom message's string content becomes a text block only when it is non-empty, so content "" gives a user message with no content blocks instead of one empty text block."""

from reference.pi.core import convert
from tests.blind.common import swapped

_orig = convert.convert_custom


def _custom(message):
    if message.get("content") == "":
        return convert._user([], message["timestamp"])
    return _orig(message)


def handle(msg, call):
    with swapped([(convert, "_CONVERTERS", dict(convert._CONVERTERS, custom=_custom))]):
        return call()
