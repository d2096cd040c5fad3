"""profiles.strip -- PROF-STRIP, PROF-NEWLINES.
Bug: after a removed block every white space character is skipped (spaces and tabs too, as a regular expression "\\s*" would), not only the newlines right after it."""

import re

from reference.profiles.core import compose
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(compose, "_LEADING_NEWLINES", re.compile(r"\s*"))]):
        return call()
