r"""profiles.strip -- PROF-STRIP, PROF-NEWLINES.
Bug: after a removed block every white space character is dropped (a left trim), not only the
"\n" and "\r\n" newlines right after it, so spaces or tabs that start the following text vanish.
"""

from __future__ import annotations

import re

from reference.profiles.core import compose
from reference.profiles.core.markers import BEGIN_MARKER, END_MARKER
from reference.profiles.core.types import Diagnostic

from tests.blind.common import everywhere, swapped

_SPACE = re.compile(r"\s*")


def _strip_blocks(text):
    out, pos, removed, diags = [], 0, 0, []
    while True:
        begin = text.find(BEGIN_MARKER, pos)
        if begin < 0:
            break
        end = text.find(END_MARKER, begin + len(BEGIN_MARKER))
        if end < 0:
            diags.append(Diagnostic("warn", "block-unterminated", None, "systemPrompt",
                                    "begin marker without an end marker; left as is"))
            break
        out.append(text[pos:begin])
        pos = _SPACE.match(text, end + len(END_MARKER)).end()
        removed += 1
    out.append(text[pos:])
    return compose.Stripped("".join(out), removed, diags)


def handle(msg, call):
    with swapped(everywhere(compose.strip_blocks, _strip_blocks)):
        return call()


# shown on: {"op": "profiles.strip", "input": {"text": "<!-- system-instructions:begin v1 -->\nold\n<!-- system-instructions:end -->\n  indented base"}}
