"""Strategies of ``pi.validate-message`` (Pi's docs "Message Types", PI-DECISION-MESSAGES): messages
of every role, well formed and broken in the ways the checks tell apart."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from conformance.strategies.registry import strategy

TEXT = {"type": "text", "text": "hi"}
IMAGE = {"type": "image", "data": "aGk=", "mimeType": "image/png"}
THINKING = {"type": "thinking", "thinking": "", "redacted": True}
TOOL_CALL = {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a"}}
COST = {"input": 0.1, "output": 0.2, "cacheRead": 0, "cacheWrite": 0, "total": 0.3}
USAGE = {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 4, "totalTokens": 19, "cost": COST}
STOP_REASONS = ("pending", "stop", "length", "toolUse", "error", "aborted", "deferred", "done", "")
DEFERRED = {"provider": "p", "modelId": "m", "api": "a", "id": "d1", "expiresAt": 1, "pollAfterMs": 5, "data": [1]}

WELL_FORMED = {
    "system": {"role": "system", "content": [TEXT], "sections": {"a": "x", "b": None},
               "toolsAdded": [{"name": "t", "description": "d", "parameters": {}}], "toolsRemoved": [{"name": "u"}],
               "replace": False, "timestamp": 1},
    "user": {"role": "user", "content": [TEXT, IMAGE], "timestamp": 1},
    "assistant": {"role": "assistant", "content": [TEXT, THINKING, TOOL_CALL], "api": "openai-completions",
                  "provider": "openai", "model": "gpt-4o", "usage": USAGE, "stopReason": "stop", "timestamp": 1},
    "toolResult": {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [TEXT, IMAGE],
                   "isError": False, "details": {"k": 1}, "timestamp": 1},
    "bashExecution": {"role": "bashExecution", "command": "ls", "output": "a\n", "exitCode": 0, "cancelled": False,
                      "truncated": True, "fullOutputPath": "/tmp/out", "excludeFromContext": False, "timestamp": 1},
    "custom": {"role": "custom", "customType": "note", "content": "x", "display": True, "details": None, "timestamp": 1},
    "branchSummary": {"role": "branchSummary", "summary": "s", "fromId": None, "timestamp": 1},
    "compactionSummary": {"role": "compactionSummary", "summary": "s", "tokensBefore": 100, "timestamp": 1},
    "x-custom": {"role": "x-custom", "anything": [1]},
}
"""One well-formed message of each role (the eight of Pi's docs and an unknown one)."""

OTHER_TYPES = (None, True, 1, -1, 0.5, "s", "", [], {}, [1], {"type": "text"})
"""Values of every JSON type, to put where a field expects another."""

NUMBERS = (0, 1, -1, 0.5, -0.5, 10**15)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path into ``value`` (dict keys and list indices), the root excluded."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            out += [path + (k,)] + _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += [path + (i,)] + _paths(v, path + (i,))
    return out


def _set(message: Any, path: tuple, value: Any, delete: bool = False) -> None:
    parent = message
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value


@st.composite
def message(draw: Any) -> Any:
    """A message of any role, well formed or broken at up to two places: a well-formed message of
    every role Pi's docs list (and unknown roles), then broken in the ways the checks tell apart --
    a field removed, given a value of another JSON type, a count made negative or fractional, a
    usage whose ``cacheWrite1h`` or ``reasoning`` is just below, equal to or just above its bound,
    every stop reason (``pending`` with and without persistence, ``deferred`` with and without its
    handle), blocks of a kind the role does not allow."""
    if draw(st.integers(0, 19)) == 0:
        return draw(st.sampled_from([None, [], "user", 1, {}, {"role": 1}, {"role": None}]))
    m = copy.deepcopy(WELL_FORMED[draw(st.sampled_from(sorted(WELL_FORMED)))])
    if m["role"] == "assistant":
        m["stopReason"] = draw(st.sampled_from(STOP_REASONS))
        if m["stopReason"] == "deferred" and draw(st.booleans()):
            m["deferred"] = copy.deepcopy(DEFERRED)
    if m["role"] in ("assistant", "toolResult") and draw(st.booleans()):
        usage = m.setdefault("usage", copy.deepcopy(USAGE))
        bound, part = draw(st.sampled_from([("cacheWrite", "cacheWrite1h"), ("output", "reasoning")]))
        usage[part] = usage[bound] + draw(st.sampled_from([-1, 0, 1, 0.5]))
    if m["role"] in ("user", "assistant", "toolResult", "custom", "system") and draw(st.integers(0, 3)) == 0:
        blocks = draw(st.lists(st.sampled_from([TEXT, IMAGE, THINKING, TOOL_CALL]), min_size=1, max_size=3))
        m["content"] = copy.deepcopy(blocks)
    for _ in range(draw(st.integers(0, 2))):
        paths = _paths(m)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        how = draw(st.sampled_from(["delete", "type", "number"]))
        if how == "delete":
            _set(m, path, None, delete=True)
        else:
            _set(m, path, copy.deepcopy(draw(st.sampled_from(OTHER_TYPES if how == "type" else NUMBERS))))
    return m


@strategy("pi.validate-message")
def validate_message() -> Any:
    """Examples ``(input, tree)`` of ``pi.validate-message``: a :func:`message`, persisted or not."""
    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        data: dict = {"message": draw(message())}
        if draw(st.booleans()):
            data["persist"] = draw(st.booleans())
        return data, None

    return build()
