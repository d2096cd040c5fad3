"""profiles.match -- PROF-MATCH-PATTERN.
Bug: a rule field is matched as a glob ("*" becomes [^/]*, as minimatch does), so "*" does not match across "/" and "deepseek/*" misses "deepseek/a/b"."""

import re

from reference.profiles.core import match
from tests.blind.common import everywhere, swapped


def _matches(pattern, value):
    if pattern is None:
        return True
    regex = "[^/]*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, value, re.DOTALL) is not None


def handle(msg, call):
    with swapped(everywhere(match.pattern_matches, _matches)):
        return call()
