"""pi.replay-system -- PI-REPLAY-SECTION-ORDER.
Bug: a message's sections are walked with Object.entries after JSON.parse, so integer-like names come first in ascending numeric order, before the other names, whatever order they were written in."""

from reference.pi.core import replay
from tests.blind.common import everywhere, swapped

_original = replay.apply_sections


def _is_index(name):
    return name == "0" or (name.isascii() and name.isdigit() and not name.startswith("0") and int(name) < 2**32 - 1)


def _apply(state, sections):
    if isinstance(sections, dict):
        ints = sorted((k for k in sections if _is_index(k)), key=int)
        sections = {**{k: sections[k] for k in ints}, **{k: v for k, v in sections.items() if not _is_index(k)}}
    return _original(state, sections)


def handle(msg, call):
    with swapped(everywhere(_original, _apply)):
        return call()
