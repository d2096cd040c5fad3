"""profiles.match -- PROF-MATCH-PATTERN.
Bug: a pattern with "*" is tested by its text before the first "*" being a prefix and its text after the last "*" being a suffix, without checking that they fit side by side, so "ab*ba" matches "aba"."""

from reference.profiles.core import match
from tests.blind.common import everywhere, swapped


def _matches(pattern, value):
    if pattern is None:
        return True
    if "*" not in pattern:
        return pattern == value
    parts = pattern.split("*")
    if not (value.startswith(parts[0]) and value.endswith(parts[-1])):
        return False
    pos = len(parts[0])
    for middle in parts[1:-1]:
        if not middle:
            continue
        found = value.find(middle, pos)
        if found < 0:
            return False
        pos = found + len(middle)
    return True


def handle(msg, call):
    with swapped(everywhere(match.pattern_matches, _matches)):
        return call()
