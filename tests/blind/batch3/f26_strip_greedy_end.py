r"""profiles.strip -- PROF-STRIP, PROF-DECISION-STRIPPING.
Bug: a block is removed with a greedy regular expression (BEGIN[\s\S]*END), so it runs to the last end marker and the text between two blocks is removed with them."""

import re

from reference.profiles.core import compose
from reference.profiles.core.markers import BEGIN_MARKER, END_MARKER
from tests.blind.common import everywhere, swapped

_original = compose.strip_blocks
_GREEDY = re.compile(re.escape(BEGIN_MARKER) + r"[\s\S]*" + re.escape(END_MARKER) + r"(?:\r?\n)*")


def _strip(text):
    result = _original(text)
    if result.removed < 2:
        return result
    return compose.Stripped(_GREEDY.sub("", text, count=1), 1, result.diagnostics)


def handle(msg, call):
    with swapped(everywhere(_original, _strip)):
        return call()
