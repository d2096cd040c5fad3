"""profiles.strip -- PROF-STRIP, PROF-DECISION-STRIPPING.
Bug: blocks are removed with a non-global replace, so only the first complete block goes and any later one stays in the text."""

from conformance.adapters.reference import profiles as adapter
from reference.profiles.core import compose
from reference.profiles.core.markers import BEGIN_MARKER, END_MARKER
from tests.blind.common import swapped

ORIGINAL = compose.strip_blocks


def strip_first(text):
    begin = text.find(BEGIN_MARKER)
    end = text.find(END_MARKER, begin + len(BEGIN_MARKER)) if begin >= 0 else -1
    if end < 0:
        return ORIGINAL(text)
    cut = end + len(END_MARKER)
    while text.startswith("\r\n", cut) or text.startswith("\n", cut):
        cut += 2 if text.startswith("\r\n", cut) else 1
    head = ORIGINAL(text[:cut])
    head.text += text[cut:]
    return head


def handle(msg, call):
    with swapped([(adapter, "strip_blocks", strip_first)]):
        return call()
