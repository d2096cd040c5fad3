"""Strategies of the message operations (Pi's docs "Message Types", PI-DECISION-MESSAGES,
PI-DECISION-CONVERSION): ``pi.validate-message``, ``pi.replay-system`` and ``pi.convert-to-llm``,
each example built from one drawn number (:func:`~conformance.strategies.registry.drawn_number`
seeding a ``random.Random``), and each operation's frames: one example per combination of its
declared input classes that no drawn example could be relied on to hold."""

from __future__ import annotations

import copy
import random
from typing import Any, Callable

from conformance.strategies.registry import drawn_number, frames, strategy

TEXT = {"type": "text", "text": "hi"}
IMAGE = {"type": "image", "data": "aGk=", "mimeType": "image/png"}
THINKING = {"type": "thinking", "thinking": "", "redacted": True}
TOOL_CALL = {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a"}}
COST = {"input": 0.1, "output": 0.2, "cacheRead": 0, "cacheWrite": 0, "total": 0.3}
USAGE = {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 4, "totalTokens": 19, "cost": COST}
STOP_REASONS = ("pending", "stop", "length", "toolUse", "error", "aborted", "deferred", "done", "")
DEFERRED = {"provider": "p", "modelId": "m", "api": "a", "id": "d1", "expiresAt": 1, "pollAfterMs": 5, "data": [1]}
TEXTS = ("hi", "caf\u00e9", "\u4e2d\u6587", "\U0001F680 go", "e\u0301", "", " ", "a\nb")
"""Texts of every character class: ASCII, other BMP, beyond it, a combining mark, empty, blank."""

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
NOT_OBJECTS = (None, [], "user", 1)


def well_formed(role: str, **fields: Any) -> dict:
    """A copy of the well-formed message of ``role`` with ``fields`` set (a field given ``...``
    is removed)."""
    m = copy.deepcopy(WELL_FORMED[role])
    for key, value in fields.items():
        if value is ...:
            m.pop(key, None)
        else:
            m[key] = copy.deepcopy(value)
    return m


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


def _bounded(usage: dict, part: str, bound: str, delta: float) -> dict:
    """``usage`` with ``part`` set to its ``bound`` plus ``delta`` (PI-MSG-USAGE-CACHEWRITE1H,
    PI-MSG-USAGE-REASONING)."""
    return {**usage, part: usage[bound] + delta}


def message(pick: random.Random) -> Any:
    """A message of any role, well formed or broken at up to two places: a well-formed message of
    every role Pi's docs list (and unknown roles), then broken in the ways the checks tell apart --
    a field removed, given a value of another JSON type, a count made negative or fractional, a
    usage whose ``cacheWrite1h`` or ``reasoning`` is just below, equal to or just above its bound,
    every stop reason (``pending`` with and without persistence, ``deferred`` with and without its
    handle), blocks of a kind the role does not allow."""
    if pick.randrange(20) == 0:
        return pick.choice(NOT_OBJECTS + ({}, {"role": 1}, {"role": None}))
    m = well_formed(pick.choice(sorted(WELL_FORMED)))
    if m["role"] == "assistant":
        m["stopReason"] = pick.choice(STOP_REASONS)
        if m["stopReason"] == "deferred" and pick.random() < 0.5:
            m["deferred"] = copy.deepcopy(DEFERRED)
    if m["role"] in ("assistant", "toolResult") and pick.random() < 0.5:
        bound, part = pick.choice([("cacheWrite", "cacheWrite1h"), ("output", "reasoning")])
        m["usage"] = _bounded(m.get("usage") or USAGE, part, bound, pick.choice([-1, 0, 1, 0.5]))
    if m["role"] in ("user", "assistant", "toolResult", "custom", "system") and pick.randrange(4) == 0:
        m["content"] = copy.deepcopy([pick.choice([TEXT, IMAGE, THINKING, TOOL_CALL]) for _ in range(pick.randint(1, 3))])
    for _ in range(pick.randint(0, 2)):
        paths = _paths(m)
        if not paths:
            break
        path = pick.choice(paths)
        how = pick.choice(["delete", "type", "number"])
        if how == "delete":
            _set(m, path, None, delete=True)
        else:
            _set(m, path, copy.deepcopy(pick.choice(OTHER_TYPES if how == "type" else NUMBERS)))
    return m


@strategy("pi.validate-message")
def validate_message() -> Any:
    """Examples ``(input, tree)`` of ``pi.validate-message``: a :func:`message`, persisted or not."""
    def build(k: int) -> tuple[dict, None]:
        pick = random.Random(k)
        data: dict = {"message": message(pick)}
        if pick.random() < 0.5:
            data["persist"] = pick.random() < 0.5
        return data, None

    return drawn_number().map(build)


@frames("pi.validate-message")
def validate_message_frames() -> list[tuple[dict, None]]:
    """One message of each role and each non-object form, and an assistant message of each stop
    reason, each carrying some of the other classes: every block kind where its role allows and
    refuses it, each usage bound below, at and above, nulls, extra fields, negative and fractional
    numbers, keys that are not identifier-like, an index of two digits, every character class; a
    listed role in another case and with a trailing space, which are unknown roles."""
    signed = {**TEXT, "text": "\U0001F680 sign\u0301ed", "textSignature": "opaque"}
    odd = {"type": "audio", "data": "aGk="}
    usage = copy.deepcopy(USAGE)
    messages: list[tuple[Any, bool | None]] = [
        (None, None),
        ({"content": "x", "timestamp": 1, "my-key": 1}, False),
        ({"role": 1, "content": "x", "timestamp": 1}, None),
        (well_formed("system", content=[TEXT, IMAGE], sections={"\u00e9": "caf\u00e9"}), None),
        (well_formed("user", content=[signed, IMAGE, THINKING, TOOL_CALL, odd]), True),
        (well_formed("toolResult", content="a string", usage=_bounded(usage, "cacheWrite1h", "cacheWrite", 1)), None),
        (well_formed("bashExecution", exitCode=None, fullOutputPath=None), None),
        (well_formed("bashExecution", exitCode=...), None),
        (well_formed("custom", content="", extra={"kept": True}), None),
        (well_formed("branchSummary", fromId=None, timestamp=None), None),
        (well_formed("compactionSummary", tokensBefore=-1.5), None),
        (well_formed("x-custom", note="\u4e2d\u6587"), None),
        ({"role": "User", "content": 5, "timestamp": "x"}, None),
        ({"role": "toolResult ", "content": 5}, True),
        (well_formed("assistant", stopReason="pending", usage=_bounded(usage, "cacheWrite1h", "cacheWrite", -1)), True),
        (well_formed("assistant", stopReason="stop", content=[TEXT, IMAGE],
                     usage=_bounded(usage, "cacheWrite1h", "cacheWrite", 0)), False),
        (well_formed("assistant", stopReason="length", usage=_bounded(usage, "reasoning", "output", -0.5)), None),
        (well_formed("assistant", stopReason="toolUse", content=[TOOL_CALL],
                     usage=_bounded(usage, "reasoning", "output", 0)), None),
        (well_formed("assistant", stopReason="error", content=[THINKING], errorMessage="failed",
                     usage=_bounded(usage, "reasoning", "output", 1)), None),
        (well_formed("assistant", stopReason="aborted", usage=_bounded(usage, "cacheWrite1h", "cacheWrite", 0.5)), None),
        (well_formed("assistant", stopReason="deferred"), None),
        (well_formed("assistant", stopReason="deferred", deferred=DEFERRED), True),
        (well_formed("assistant", stopReason="done", content=[TEXT] * 11), None),
    ]
    out = []
    for m, persist in messages:
        data: dict = {"message": m}
        if persist is not None:
            data["persist"] = persist
        out.append((data, None))
    return out


# --- replay (PI-REPLAY-*) --------------------------------------------------------------------------------------------

SECTION_NAMES = ("rules", "style", "tools", "memo", "2", "10")
TOOL_NAMES = ("read", "write", "bash", "grep")


def _short(pick: random.Random) -> str:
    return "".join(pick.choice("ab \n") for _ in range(pick.randrange(7)))


def system_message(pick: random.Random) -> dict:
    """A ``system`` message of ``pi.replay-system``: content as a string or text parts, sections
    set and removed (``null``), tools added and removed, ``replace`` now and then."""
    m: dict = {"role": "system", "timestamp": pick.randrange(10**6)}
    if pick.random() < 0.5:
        m["content"] = pick.choice(TEXTS) if pick.random() < 0.3 else _short(pick)
    else:
        m["content"] = [{"type": "text", "text": _short(pick)} for _ in range(pick.randrange(3))]
    if pick.random() < 0.6:
        m["sections"] = {name: None if pick.random() < 0.3 else _short(pick)
                         for name in pick.sample(SECTION_NAMES, pick.randrange(4))}
    if pick.random() < 0.5:
        m["toolsAdded"] = [{"name": n, "description": _short(pick), "parameters": {"type": "object"}}
                           for n in pick.sample(TOOL_NAMES, pick.randrange(3))]
    if pick.random() < 0.5:
        m["toolsRemoved"] = [{"name": n} for n in pick.sample(TOOL_NAMES, pick.randrange(3))]
    if pick.randrange(5) == 0:
        m["replace"] = pick.random() < 0.5
    return m


@strategy("pi.replay-system")
def replay_system() -> Any:
    """Examples ``(input, tree)`` of ``pi.replay-system``: transcripts of 1 to 5
    :func:`system_message` whose sections and tools are set, updated, removed and set again, now
    and then with a message of another role among them."""
    def build(k: int) -> tuple[dict, None]:
        pick = random.Random(k)
        messages: list = [system_message(pick) for _ in range(pick.randint(1, 5))]
        if pick.random() < 0.3:  # other roles, never examined (PI-REPLAY-NON-SYSTEM)
            messages.insert(pick.randrange(len(messages) + 1), pick.choice([well_formed("user"), {"role": "x"}, "junk"]))
        return {"messages": messages}, None

    return drawn_number().map(build)


def _system(timestamp: int, **fields: Any) -> dict:
    return {"role": "system", "timestamp": timestamp, **fields}


@frames("pi.replay-system")
def replay_system_frames() -> list[tuple[dict, None]]:
    """No system message among others; one; several living through every life of a section (set,
    updated, removed, removed when absent, set again, integer-like names, empty text) and of a
    tool (added, removed then added, removed when absent, redefined), every content form and
    character class; ``replace`` true after earlier state; an image block; a malformed message;
    malformed messages of role ``System`` and ``system ``, which are other roles."""
    tool = {"description": "d", "parameters": {"type": "object"}}
    several = [
        _system(1, content="Be brief. caf\u00e9", sections={"rules": "R1", "memo": "M", "10": "ten", "2": "two"},
                toolsAdded=[{"name": "read", **tool}], toolsRemoved=[{"name": "grep"}], replace=False),
        _system(2, content=[{"type": "text", "text": "\U0001F680 one"}, {"type": "text", "text": "e\u0301"}],
                sections={"rules": "R2", "memo": None, "style": None, "tools": ""},
                toolsAdded=[{"name": "read", **tool, "description": "again"}, {"name": "bash", **tool}],
                toolsRemoved=[{"name": "bash"}, {"name": "write"}]),
        _system(3, content="", sections={"memo": "back"}),
    ]
    return [({"messages": m}, None) for m in (
        [well_formed("user"), {"role": "x-custom"}],
        [_system(1, content="Only one.")],
        several,
        [_system(1, content="Old", sections={"rules": "R"}, toolsAdded=[{"name": "read", **tool}]),
         _system(2, content="New", sections={"style": "S"}, replace=True)],
        [_system(1, content=[{"type": "text", "text": "a"}, IMAGE])],
        [_system(1, content="ok"), {"role": "system", "content": 1}],
        [_system(1, content="ok"), {"role": "System", "content": 1}, {"role": "system ", "sections": {"a": 3}}],
        [_system(1, content=" ", sections={"blank": " \n\t", "kept": "k"}), _system(2, content=[{"type": "text", "text": "\n"}])],
    )]


# --- conversion (PI-CONVERT-*) ---------------------------------------------------------------------------------------

def bash_execution(pick: random.Random) -> dict:
    """A bash execution of every branch of its text: output or none, exit codes, cancelled,
    truncated with and without a path, excluded."""
    m = {"role": "bashExecution", "command": pick.choice(("ls", "ls -a", "", "echo \u00e9")),
         "output": pick.choice(("", "ok\n", "a", "\U0001F600\n")), "exitCode": pick.choice((0, 1, 2, None)),
         "cancelled": pick.random() < 0.3, "truncated": pick.random() < 0.5, "timestamp": pick.randrange(1000)}
    if pick.random() < 0.3:
        del m["exitCode"]
    if pick.random() < 0.5:
        m["excludeFromContext"] = pick.random() < 0.5
    if pick.random() < 0.6:
        m["fullOutputPath"] = pick.choice(("", "/tmp/full.log"))
    return m


def user_message(pick: random.Random) -> dict:
    """A plain user message (a base role that passes unchanged, PI-CONVERT-PASSTHROUGH)."""
    return {"role": "user", "content": "".join(pick.choice("ab ") for _ in range(pick.randrange(6))),
            "timestamp": pick.randrange(1001)}


def extra_message(pick: random.Random) -> dict:
    """A message that conversion rewrites or drops: a bash execution or an unknown role."""
    if pick.random() < 0.5:
        return bash_execution(pick)
    return {"role": pick.choice(("note", "plan", "x-custom")), "text": "opaque", "timestamp": 0}


def drawn(build: Callable[[random.Random], Any]) -> Any:
    """The strategy of ``build(random.Random(n))`` for a drawn number ``n`` (what the invariants
    draw messages with)."""
    return drawn_number().map(lambda k: build(random.Random(k)))


def _converted_message(pick: random.Random) -> Any:
    kind = pick.randrange(6)
    if kind <= 1:
        return extra_message(pick)
    if kind == 2:
        return user_message(pick)
    if kind == 3:
        return well_formed("custom", content=pick.choice(("x", "", [TEXT], [TEXT, IMAGE])))
    if kind == 4:
        return pick.choice((well_formed("branchSummary", summary=pick.choice(TEXTS)),
                            well_formed("compactionSummary", summary=pick.choice(TEXTS))))
    return well_formed(pick.choice(("user", "assistant", "toolResult", "system")))


@strategy("pi.convert-to-llm")
def convert_to_llm() -> Any:
    """Examples ``(input, tree)`` of ``pi.convert-to-llm``: transcripts of up to 5 messages of
    every role conversion rewrites, passes or drops."""
    def build(k: int) -> tuple[dict, None]:
        pick = random.Random(k)
        return {"messages": [_converted_message(pick) for _ in range(pick.randrange(6))]}, None

    return drawn_number().map(build)


@frames("pi.convert-to-llm")
def convert_to_llm_frames() -> list[tuple[dict, None]]:
    """No message; one transcript of every role and every branch of a bash execution's text (an
    output of white space only among them), with a pending assistant message and every character
    class; a malformed message of a known role; malformed messages of listed roles in another case
    or with white space around them, which are unknown roles."""
    bash = well_formed("bashExecution", truncated=False, fullOutputPath=..., excludeFromContext=...)
    every = [
        well_formed("user", content="caf\u00e9 \U0001F680 e\u0301"), well_formed("assistant"),
        well_formed("assistant", stopReason="pending"), well_formed("toolResult"), well_formed("system"),
        well_formed("custom", content="note"), well_formed("custom", content=[TEXT, IMAGE]),
        well_formed("branchSummary", summary="went back"), well_formed("compactionSummary", summary="earlier"),
        {"role": "x-custom", "anything": [1]},
        {**bash, "output": "a\n", "exitCode": 0},
        {**bash, "output": "", "exitCode": 2},
        {**bash, "output": " \t\r\n"}, {**bash, "output": "\u00a0\u2028\ufeff"},
        {**bash, "exitCode": 2**53 + 1}, {**bash, "exitCode": -(2**60)}, {**bash, "exitCode": 10**21 + 1},
        {**bash, "exitCode": None},
        {k: v for k, v in bash.items() if k != "exitCode"},
        {**bash, "cancelled": True, "exitCode": 130},
        {**bash, "truncated": True, "fullOutputPath": "/tmp/full.log"},
        {**bash, "truncated": True, "fullOutputPath": ""},
        {**bash, "fullOutputPath": "/tmp/kept.log"},
        {**bash, "excludeFromContext": True},
        {**bash, "excludeFromContext": False},
    ]
    recased = [well_formed("user"), {"role": "ASSISTANT", "content": 5}, {"role": "Custom", "content": 5},
               {"role": "bashexecution", "command": 5}, {"role": " user", "content": 5}]
    return [({"messages": m}, None) for m in ([], every, [well_formed("user"), well_formed("custom", timestamp=...)], recased)]
