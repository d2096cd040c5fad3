"""profiles.match -- PROF-MATCH-PATTERN.
Bug: a pattern with "*" is compiled to a regular expression and tried with re.match, which anchors only the start, so "gpt-*-mini" matches "gpt-4o-mini-high" and "*4o" matches "gpt-4o-mini"."""

import re

from reference.profiles.core import match
from tests.blind.common import everywhere, swapped


def _matches(pattern, value):
    if pattern is None:
        return True
    if "*" not in pattern:
        return pattern == value
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.match(regex, value, re.DOTALL) is not None


def handle(msg, call):
    with swapped(everywhere(match.pattern_matches, _matches)):
        return call()
