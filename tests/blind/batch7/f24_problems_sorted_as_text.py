"""pi.validate-message -- PI-MSG-PROBLEMS.
Bug: problems are sorted by their JSON path as a string, so indices compare as text:
"$.content[10]" comes before "$.content[2]".
"""

from __future__ import annotations

from reference.pi.core.messages import Problem

from tests.blind.common import swapped


def _sort_key(self):
    return (self.path, self.code)


def handle(msg, call):
    with swapped([(Problem, "sort_key", _sort_key)]):
        return call()


# shown on: {"op": "pi.validate-message", "input": {"message": {"role": "user", "content": [{"type": "text", "text": "0"}, {"type": "text", "text": "1"}, {"type": "thinking", "thinking": "x"}, {"type": "text", "text": "3"}, {"type": "text", "text": "4"}, {"type": "text", "text": "5"}, {"type": "text", "text": "6"}, {"type": "text", "text": "7"}, {"type": "text", "text": "8"}, {"type": "text", "text": "9"}, {"type": "thinking", "thinking": "y"}], "timestamp": 1}}}
