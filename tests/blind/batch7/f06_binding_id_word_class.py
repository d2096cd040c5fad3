r"""profiles.config -- PROF-ID, PROF-CONFIG-BINDING.
Bug: binding ids are checked with the pattern written as [\w][\w.-]* (Python's Unicode \w), so an
id starting with "_" or holding letters beyond ASCII ("_fast", "café") is accepted instead of being
dropped with config-binding-id.
"""

from __future__ import annotations

import re

from reference.profiles.core import config, ids

from tests.blind.common import swapped

_WORDY = re.compile(r"[\w][\w.-]*")


def _is_valid_id(text):
    return (isinstance(text, str) and len(text) <= ids.ID_MAX_LENGTH and ".." not in text
            and _WORDY.fullmatch(text) is not None)


def handle(msg, call):
    with swapped([(config, "is_valid_id", _is_valid_id)]):
        return call()


# shown on: {"op": "profiles.config", "input": {"scope": "global", "config": {"version": 1, "bindings": [{"id": "_fast", "profile": "x", "match": [{"provider": "anthropic"}]}]}}}
