"""profiles.match -- PROF-MATCH-PATTERN.
Bug: "*" is implemented as a path glob that matches any run of characters except "/", so
"deepseek/*" does not match the model id "deepseek/a/b".
"""

from __future__ import annotations

import re

from reference.profiles.core import match

from tests.blind.common import everywhere, swapped


def _pattern_matches(pattern, value):
    if pattern is None:
        return True
    regex = "[^/]*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, value, re.DOTALL) is not None


def handle(msg, call):
    with swapped(everywhere(match.pattern_matches, _pattern_matches)):
        return call()


# shown on: {"op": "profiles.match", "input": {"model": {"provider": "openrouter", "id": "deepseek/r1/free"}, "match": [{"model": "deepseek/*"}]}}
