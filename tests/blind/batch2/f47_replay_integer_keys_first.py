"""pi.replay-system -- PI-REPLAY-SECTION-ORDER, PI-REPLAY-SECTION-SET.
Bug: the sections are kept in a plain JavaScript object, so integer-like names ("2", "10") always come first, in numeric order, before every other name."""

import re

from reference.pi.core import replay
from tests.blind.common import swapped

ORIGINAL = replay.apply_sections
INDEX = re.compile(r"0|[1-9][0-9]*")


def apply_sections(state, sections):
    ORIGINAL(state, sections)
    names = list(state.sections)
    numeric = sorted((n for n in names if INDEX.fullmatch(n) and int(n) < 2**32 - 1), key=int)
    state.sections = {n: state.sections[n] for n in numeric + [n for n in names if n not in numeric]}


def handle(msg, call):
    with swapped([(replay, "apply_sections", apply_sections)]):
        return call()
