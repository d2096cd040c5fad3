"""profiles.config -- PROF-CONFIG-PRIORITY, PROF-CONFIG-VERSION.
Bug: a JSON number is recognised with isinstance(value, (int, float)), and Python's booleans are
ints, so a priority of true is kept as 1 (and a version of true counts as 1).
"""

from __future__ import annotations

from reference.profiles.core import config

from tests.blind.common import swapped


def _is_number(value):
    return isinstance(value, (int, float))


def handle(msg, call):
    with swapped([(config, "is_number", _is_number)]):
        return call()


# shown on: {"op": "profiles.config", "input": {"scope": "global", "config": {"version": 1, "bindings": [{"id": "b", "profile": "x", "match": [{"provider": "anthropic"}], "priority": true}]}}}
