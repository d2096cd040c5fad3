"""profiles.strip -- PROF-STRIP.
Bug: a block runs from the first begin marker to the last end marker (a greedy match), so two
blocks and the text between them are removed as one block.
"""

from __future__ import annotations

import re

from reference.profiles.core import compose
from reference.profiles.core.markers import BEGIN_MARKER, END_MARKER

from tests.blind.common import everywhere, swapped

_original = compose.strip_blocks
_BLOCK = re.compile(re.escape(BEGIN_MARKER) + ".*" + re.escape(END_MARKER) + r"(?:\r?\n)*", re.S)


def _strip_blocks(text: str):
    found = _original(text)
    if found.removed == 0:
        return found
    stripped, removed = _BLOCK.subn("", text)
    return compose.Stripped(stripped, removed, found.diagnostics)


def handle(msg, call):
    with swapped(everywhere(_original, _strip_blocks)):
        return call()
