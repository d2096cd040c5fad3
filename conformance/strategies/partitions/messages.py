"""The input classes of the message operations (PI-DECISION-MESSAGES, PI-DECISION-CONVERSION):
validation, the replay of system messages and the conversion to model messages."""

from __future__ import annotations

import re
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, character_cells
from conformance.strategies.partitions.envelope import JS_SPACE

ROLES = ("system", "user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary",
         "compactionSummary")
"""The roles Pi's docs list."""
ROLE_CLAUSES = {"system": "PI-MSG-SYSTEM", "user": "PI-MSG-USER", "assistant": "PI-MSG-ASSISTANT",
                "toolResult": "PI-MSG-TOOLRESULT", "bashExecution": "PI-MSG-BASH", "custom": "PI-MSG-CUSTOM",
                "branchSummary": "PI-MSG-BRANCH-SUMMARY", "compactionSummary": "PI-MSG-COMPACTION-SUMMARY"}


def near_listed_role(role: Any) -> bool:
    """Whether ``role`` is a listed role written in another case or with white space around it
    (``User``, ``toolresult``, ``user ``): not a listed role (PI-MSG-UNKNOWN-ROLE compares exactly)."""
    return (isinstance(role, str) and role not in ROLES
            and role.strip().lower() in {r.lower() for r in ROLES})


STOP_REASONS = ("pending", "stop", "length", "toolUse", "error", "aborted", "deferred")


def _message(test: Callable[[dict], bool]) -> Hit:
    """The class of ``pi.validate-message`` inputs whose message is an object that passes ``test``."""
    return lambda input, tree: isinstance(input.get("message"), dict) and test(input["message"])


def _role(m: dict, role: str) -> bool:
    return m.get("role") == role


def _blocks(m: dict) -> list:
    content = m.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _block(role: str | None, kind: str) -> Hit:
    return _message(lambda m: (role is None or _role(m, role)) and any(b.get("type") == kind for b in _blocks(m)))


def _usage_bound(part: str, bound: str, test: Callable[[float], bool]) -> Hit:
    def hit(m: dict) -> bool:
        usage = m.get("usage")
        return (isinstance(usage, dict) and isinstance(usage.get(part), (int, float))
                and isinstance(usage.get(bound), (int, float)) and test(usage[part] - usage[bound]))

    return _message(hit)


def _numbers(value: Any) -> list:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


def _keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [k for k, v in value.items() for k in [k, *_keys(v)]]
    if isinstance(value, list):
        return [k for v in value for k in _keys(v)]
    return []


VALIDATE_MESSAGE = [
    Cell("message", "not an object", ("PI-MSG-OBJECT",), lambda input, tree: not isinstance(input.get("message"), dict)),
    Cell("message", "role absent", ("PI-MSG-OBJECT",), _message(lambda m: "role" not in m)),
    Cell("message", "role not a string", ("PI-MSG-OBJECT",), _message(lambda m: "role" in m and not isinstance(m["role"], str))),
    *[Cell("role", role, (ROLE_CLAUSES[role],), _message(lambda m, role=role: _role(m, role))) for role in ROLES],
    Cell("role", "unknown role", ("PI-MSG-UNKNOWN-ROLE",),
         _message(lambda m: isinstance(m.get("role"), str) and m["role"] not in ROLES)),
    Cell("role", "a listed role in another case or with white space around it", ("PI-MSG-UNKNOWN-ROLE",),
         _message(lambda m: near_listed_role(m.get("role")))),
    Cell("content", "a string", ("PI-MSG-USER", "PI-MSG-SYSTEM", "PI-MSG-TOOLRESULT"),
         _message(lambda m: isinstance(m.get("content"), str))),
    Cell("content", "empty", ("PI-MSG-SYSTEM", "PI-MSG-USER"), _message(lambda m: m.get("content") in ("", []))),
    Cell("block", "text with a signature", ("PI-MSG-TEXT-BLOCK",),
         _message(lambda m: any(b.get("type") == "text" and "textSignature" in b for b in _blocks(m)))),
    Cell("block", "image in a user message", ("PI-MSG-IMAGE-BLOCK", "PI-MSG-USER"), _block("user", "image")),
    Cell("block", "image in a system message", ("PI-MSG-SYSTEM-NO-IMAGE",), _block("system", "image")),
    Cell("block", "image in an assistant message", ("PI-MSG-ASSISTANT",), _block("assistant", "image")),
    Cell("block", "thinking in a user message", ("PI-MSG-USER",), _block("user", "thinking")),
    Cell("block", "tool call in a user message", ("PI-MSG-USER",), _block("user", "toolCall")),
    Cell("block", "redacted thinking with empty text", ("PI-MSG-THINKING-BLOCK",),
         _message(lambda m: any(b.get("type") == "thinking" and b.get("redacted") is True and b.get("thinking") == ""
                                for b in _blocks(m)))),
    Cell("block", "tool call", ("PI-MSG-TOOLCALL-BLOCK",), _block("assistant", "toolCall")),
    Cell("block", "unknown type", ("PI-MSG-USER", "PI-MSG-ASSISTANT"),
         _message(lambda m: any(b.get("type") not in ("text", "image", "thinking", "toolCall") for b in _blocks(m)))),
    Cell("usage bound", "cacheWrite1h below cacheWrite", ("PI-MSG-USAGE-CACHEWRITE1H",),
         _usage_bound("cacheWrite1h", "cacheWrite", lambda d: d < 0)),
    Cell("usage bound", "cacheWrite1h equal to cacheWrite", ("PI-MSG-USAGE-CACHEWRITE1H",),
         _usage_bound("cacheWrite1h", "cacheWrite", lambda d: d == 0)),
    Cell("usage bound", "cacheWrite1h above cacheWrite", ("PI-MSG-USAGE-CACHEWRITE1H",),
         _usage_bound("cacheWrite1h", "cacheWrite", lambda d: d > 0)),
    Cell("usage bound", "reasoning below output", ("PI-MSG-USAGE-REASONING",), _usage_bound("reasoning", "output", lambda d: d < 0)),
    Cell("usage bound", "reasoning equal to output", ("PI-MSG-USAGE-REASONING",), _usage_bound("reasoning", "output", lambda d: d == 0)),
    Cell("usage bound", "reasoning above output", ("PI-MSG-USAGE-REASONING",), _usage_bound("reasoning", "output", lambda d: d > 0)),
    Cell("numbers", "negative", ("PI-MSG-COUNTS-NONNEGATIVE",), _message(lambda m: any(n < 0 for n in _numbers(m)))),
    Cell("numbers", "fractional", ("PI-MSG-COUNTS-NONNEGATIVE",),
         _message(lambda m: any(isinstance(n, float) and not n.is_integer() for n in _numbers(m)))),
    *[Cell("stop reason", reason, ("PI-MSG-STOP-REASON",), _message(lambda m, r=reason: _role(m, "assistant") and m.get("stopReason") == r))
      for reason in STOP_REASONS],
    Cell("stop reason", "not one of the seven", ("PI-MSG-STOP-REASON",),
         _message(lambda m: _role(m, "assistant") and "stopReason" in m and m["stopReason"] not in STOP_REASONS)),
    Cell("persist", "pending persisted", ("PI-MSG-PENDING",),
         lambda input, tree: input.get("persist") is True and _message(lambda m: m.get("stopReason") == "pending")(input, tree)),
    Cell("persist", "absent", ("PI-MSG-PENDING",), lambda input, tree: "persist" not in input),
    Cell("persist", "false", ("PI-MSG-PENDING",), lambda input, tree: input.get("persist") is False),
    Cell("deferred", "without its handle", ("PI-MSG-DEFERRED",),
         _message(lambda m: m.get("stopReason") == "deferred" and "deferred" not in m)),
    Cell("deferred", "with its handle", ("PI-MSG-DEFERRED",),
         _message(lambda m: m.get("stopReason") == "deferred" and isinstance(m.get("deferred"), dict))),
    Cell("null", "exitCode null", ("PI-MSG-BASH-EXITCODE-NULL",),
         _message(lambda m: _role(m, "bashExecution") and "exitCode" in m and m["exitCode"] is None)),
    Cell("null", "exitCode absent", ("PI-MSG-BASH-EXITCODE-NULL",), _message(lambda m: _role(m, "bashExecution") and "exitCode" not in m)),
    Cell("null", "fromId null", ("PI-MSG-BRANCH-SUMMARY", "PI-MSG-OPTIONAL-NULL"),
         _message(lambda m: _role(m, "branchSummary") and "fromId" in m and m["fromId"] is None)),
    Cell("null", "null where the type has none", ("PI-MSG-OPTIONAL-NULL",),
         _message(lambda m: any(m.get(k, 0) is None for k in ("textSignature", "responseModel", "responseId", "errorMessage",
                                                               "fullOutputPath", "excludeFromContext", "replace", "usage",
                                                               "timestamp", "toolsAdded", "toolsRemoved", "sections"))
                  or any(v is None for b in _blocks(m) for k, v in b.items() if k != "data"))),
    Cell("fields", "extra fields", ("PI-MSG-EXTRA-FIELDS",),
         _message(lambda m: isinstance(m.get("role"), str) and m["role"] in ROLES and bool(set(m) - _FIELDS))),
    Cell("problem path", "key that is not identifier-like", ("PI-MSG-PROBLEMS",),
         _message(lambda m: any(not re.fullmatch(r"[A-Za-z_$][\w$]*", k) for k in _keys(m)))),
    Cell("problem path", "index of two digits", ("PI-MSG-PROBLEMS",),
         _message(lambda m: any(isinstance(v, list) and len(v) > 10 for v in [m.get("content"), m.get("toolsAdded")]))),
    *character_cells(("PI-MSG-TEXT-BLOCK",)),
]
"""The classes of ``pi.validate-message``: not an object, every role, every block kind in the
roles that allow and refuse it, each usage bound below, at and above, negative and fractional
numbers, every stop reason with persistence and the deferred handle, nulls where a type has or
lacks one, extra fields and the problem paths' key and index forms."""

_FIELDS = {"role", "content", "timestamp", "sections", "toolsAdded", "toolsRemoved", "replace", "api", "provider",
           "model", "usage", "stopReason", "responseModel", "responseId", "providerThinkingLevel", "errorMessage",
           "rawStopReason", "endTurn", "deferred", "toolCallId", "toolName", "isError", "details", "command",
           "output", "exitCode", "cancelled", "truncated", "fullOutputPath", "excludeFromContext", "customType",
           "display", "summary", "fromId", "tokensBefore", "thinkingLevel", "nestedCalls"}


def _system(input: dict) -> list[dict]:
    return [m for m in input.get("messages") or [] if isinstance(m, dict) and m.get("role") == "system"]


def _systems(test: Callable[[list[dict]], bool]) -> Hit:
    return lambda input, tree: test(_system(input))


def _sections(ms: list[dict]) -> list[tuple[int, str, Any]]:
    return [(i, k, v) for i, m in enumerate(ms) if isinstance(m.get("sections"), dict) for k, v in m["sections"].items()]


def _readded(ms: list[dict]) -> bool:
    seen: dict[str, str] = {}
    for _, k, v in _sections(ms):
        if v is not None and seen.get(k) == "removed":
            return True
        seen[k] = "removed" if v is None and k in seen else "set" if v is not None else seen.get(k, "absent")
    return False


def _tool_names(ms: list[dict], key: str) -> list[list[str]]:
    return [[t.get("name") for t in m.get(key) or [] if isinstance(t, dict)] for m in ms]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _malformed_system(m: dict) -> bool:
    """Whether a system message breaks PI-MSG-SYSTEM's shape: content a string or text blocks,
    sections strings or nulls, tools with string names (and descriptions, object parameters), a
    number timestamp."""
    content, sections = m.get("content"), m.get("sections", {})
    text_only = isinstance(content, str) or (isinstance(content, list) and all(
        isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) for b in content))
    added, removed = m.get("toolsAdded", []), m.get("toolsRemoved", [])
    tools = (isinstance(added, list) and all(isinstance(t, dict) and isinstance(t.get("name"), str)
                                             and isinstance(t.get("description"), str)
                                             and isinstance(t.get("parameters"), dict) for t in added)
             and isinstance(removed, list) and all(isinstance(t, dict) and isinstance(t.get("name"), str) for t in removed))
    return not (text_only and _number(m.get("timestamp")) and tools and isinstance(sections, dict)
                and all(v is None or isinstance(v, str) for v in sections.values()))


REPLAY_SYSTEM = [
    Cell("messages", "no system message", ("PI-REPLAY-RENDER",), _systems(lambda ms: not ms)),
    Cell("messages", "one system message", ("PI-REPLAY-CONTENT-APPEND",), _systems(lambda ms: len(ms) == 1)),
    Cell("messages", "several system messages", ("PI-REPLAY-CONTENT-APPEND",), _systems(lambda ms: len(ms) > 2)),
    Cell("messages", "other roles among them", ("PI-REPLAY-NON-SYSTEM",),
         lambda input, tree: any(not isinstance(m, dict) or m.get("role") != "system" for m in input.get("messages") or [])),
    Cell("messages", "system in another case or with white space around it", ("PI-REPLAY-NON-SYSTEM", "PI-MSG-UNKNOWN-ROLE"),
         lambda input, tree: any(isinstance(m, dict) and isinstance(m.get("role"), str) and m["role"] != "system"
                                 and m["role"].strip().lower() == "system" for m in input.get("messages") or [])),
    Cell("content", "a string", ("PI-REPLAY-CONTENT-APPEND",), _systems(lambda ms: any(isinstance(m.get("content"), str) for m in ms))),
    Cell("content", "text blocks", ("PI-REPLAY-CONTENT-BLOCKS",),
         _systems(lambda ms: any(isinstance(m.get("content"), list) and len(m["content"]) > 1 for m in ms))),
    Cell("content", "empty", ("PI-REPLAY-CONTENT-APPEND",), _systems(lambda ms: any(m.get("content") in ("", []) for m in ms))),
    Cell("content", "an image block", ("PI-MSG-SYSTEM-NO-IMAGE",),
         _systems(lambda ms: any(b.get("type") == "image" for m in ms for b in _blocks(m)))),
    Cell("sections", "set", ("PI-REPLAY-SECTION-SET",), _systems(lambda ms: any(v is not None for _, _, v in _sections(ms)))),
    Cell("sections", "updated in a later message", ("PI-REPLAY-SECTION-SET",),
         _systems(lambda ms: any(a[1] == b[1] and a[0] < b[0] and a[2] is not None and b[2] is not None
                                 for a in _sections(ms) for b in _sections(ms)))),
    Cell("sections", "removed", ("PI-REPLAY-SECTION-REMOVE",),
         _systems(lambda ms: any(v is None and any(k == k2 and i2 < i and v2 is not None for i2, k2, v2 in _sections(ms))
                                 for i, k, v in _sections(ms)))),
    Cell("sections", "removed when absent", ("PI-REPLAY-SECTION-REMOVE",),
         _systems(lambda ms: any(v is None and not any(k == k2 and i2 < i for i2, k2, _ in _sections(ms)) for i, k, v in _sections(ms)))),
    Cell("sections", "set again after removal", ("PI-REPLAY-SECTION-READD",), _systems(_readded)),
    Cell("sections", "integer-like names", ("PI-REPLAY-SECTION-ORDER",),
         _systems(lambda ms: any(k.isdigit() for _, k, _ in _sections(ms)) and len(_sections(ms)) > 1)),
    Cell("sections", "empty text", ("PI-REPLAY-RENDER",), _systems(lambda ms: any(v == "" for _, _, v in _sections(ms)))),
    Cell("sections", "white space only", ("PI-REPLAY-RENDER",),
         _systems(lambda ms: any(isinstance(v, str) and v != "" and v.strip() == "" for _, _, v in _sections(ms)))),
    Cell("content", "white space only", ("PI-REPLAY-RENDER",),
         _systems(lambda ms: any(isinstance(t, str) and t != "" and t.strip() == ""
                                 for m in ms for t in [m.get("content"), *[b.get("text") for b in _blocks(m)]]))),
    Cell("tools", "added", ("PI-REPLAY-TOOLS",), _systems(lambda ms: any(_tool_names(ms, "toolsAdded")))),
    Cell("tools", "removed then added in one message", ("PI-REPLAY-TOOLS",),
         _systems(lambda ms: any(set(a) & set(r) for a, r in zip(_tool_names(ms, "toolsAdded"), _tool_names(ms, "toolsRemoved"))))),
    Cell("tools", "removed when absent", ("PI-REPLAY-TOOLS",),
         _systems(lambda ms: any(n not in {x for a in _tool_names(ms[:i], "toolsAdded") for x in a}
                                 for i, r in enumerate(_tool_names(ms, "toolsRemoved")) for n in r))),
    Cell("tools", "redefined without removal", ("PI-REPLAY-TOOLS-REDEFINE",),
         _systems(lambda ms: any(n in {x for a in _tool_names(ms[:i], "toolsAdded") for x in a} and n not in r
                                 for i, (added, r) in enumerate(zip(_tool_names(ms, "toolsAdded"), _tool_names(ms, "toolsRemoved")))
                                 for n in added))),
    Cell("replace", "true after earlier state", ("PI-REPLAY-REPLACE",),
         _systems(lambda ms: any(m.get("replace") is True for m in ms[1:]))),
    Cell("replace", "false", ("PI-REPLAY-REPLACE",), _systems(lambda ms: any(m.get("replace") is False for m in ms))),
    Cell("message", "malformed system message", ("PI-MSG-REFUSE-INVALID", "PI-MSG-SYSTEM"),
         _systems(lambda ms: any(_malformed_system(m) for m in ms))),
    *character_cells(("PI-REPLAY-CONTENT-APPEND",)),
]
"""The classes of ``pi.replay-system``: how many system messages and what else is among them,
every content form, every life of a section (set, updated, removed, removed when absent, set
again) and of a tool, ``replace`` and a malformed message."""


def _converted(test: Callable[[dict], bool]) -> Hit:
    return lambda input, tree: any(isinstance(m, dict) and test(m) for m in input.get("messages") or [])


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bash(test: Callable[[dict], bool]) -> Hit:
    return _converted(lambda m: m.get("role") == "bashExecution" and test(m))


def _shown(m: dict) -> bool:
    return m.get("excludeFromContext") is not True


def _white_space_output(spaces: str) -> Hit:
    """Shown bash executions whose output is not empty and holds only characters of ``spaces``,
    at least one of them not ASCII when ``spaces`` is JavaScript's beyond ASCII."""
    beyond = not spaces.isascii()
    return _bash(lambda m: isinstance(m.get("output"), str) and m["output"] != "" and _shown(m)
                 and all(c in spaces for c in m["output"]) and (not beyond or not m["output"].isascii()))


CONVERT_TO_LLM = [
    Cell("messages", "none", ("PI-CONVERT-PASSTHROUGH",), lambda input, tree: not input.get("messages")),
    *[Cell("role", role, (clause,), _converted(lambda m, role=role: m.get("role") == role))
      for role, clause in (("user", "PI-CONVERT-PASSTHROUGH"), ("assistant", "PI-CONVERT-PASSTHROUGH"),
                           ("toolResult", "PI-CONVERT-PASSTHROUGH"), ("system", "PI-CONVERT-PASSTHROUGH"),
                           ("custom", "PI-CONVERT-CUSTOM"), ("branchSummary", "PI-CONVERT-BRANCH-SUMMARY"),
                           ("compactionSummary", "PI-CONVERT-COMPACTION-SUMMARY"))],
    Cell("role", "unknown role", ("PI-CONVERT-UNKNOWN-DROP",),
         _converted(lambda m: isinstance(m.get("role"), str) and m["role"] not in ROLES)),
    Cell("role", "a listed role in another case or with white space around it", ("PI-CONVERT-UNKNOWN-DROP", "PI-MSG-UNKNOWN-ROLE"),
         _converted(lambda m: near_listed_role(m.get("role")))),
    Cell("bash", "empty output", ("PI-CONVERT-BASH-TEXT",), _bash(lambda m: m.get("output") == "" and _shown(m))),
    Cell("bash", "output", ("PI-CONVERT-BASH-TEXT",), _bash(lambda m: bool(m.get("output")) and _shown(m))),
    Cell("bash", "output of ASCII white space only (spaces, tabs, CR, LF)", ("PI-CONVERT-BASH-TEXT",),
         _white_space_output(" \t\r\n")),
    Cell("bash", "output of white space only, some of it JavaScript's beyond ASCII", ("PI-CONVERT-BASH-TEXT",),
         _white_space_output(JS_SPACE)),
    Cell("bash", "exit code 0", ("PI-CONVERT-BASH-EXIT",), _bash(lambda m: m.get("exitCode") == 0 and not m.get("cancelled") and _shown(m))),
    Cell("bash", "exit code not 0", ("PI-CONVERT-BASH-EXIT",),
         _bash(lambda m: m.get("exitCode") not in (0, None) and not m.get("cancelled") and _shown(m))),
    Cell("bash", "exit code an integer past 2**53", ("PI-CONVERT-BASH-EXIT",),
         _bash(lambda m: _integer(m.get("exitCode")) and 2**53 < abs(m["exitCode"]) < 10**21 and not m.get("cancelled") and _shown(m))),
    Cell("bash", "exit code an integer of 1e21 or more", ("PI-CONVERT-BASH-EXIT",),
         _bash(lambda m: _integer(m.get("exitCode")) and abs(m["exitCode"]) >= 10**21 and not m.get("cancelled") and _shown(m))),
    Cell("bash", "exit code null or absent", ("PI-CONVERT-BASH-EXIT", "PI-MSG-BASH-EXITCODE-NULL"),
         _bash(lambda m: m.get("exitCode") is None and not m.get("cancelled") and _shown(m))),
    Cell("bash", "cancelled with an exit code", ("PI-CONVERT-BASH-CANCEL",),
         _bash(lambda m: m.get("cancelled") is True and m.get("exitCode") not in (0, None) and _shown(m))),
    Cell("bash", "truncated with a path", ("PI-CONVERT-BASH-TRUNCATED",),
         _bash(lambda m: m.get("truncated") is True and bool(m.get("fullOutputPath")) and _shown(m))),
    Cell("bash", "truncated with an empty or no path", ("PI-CONVERT-BASH-TRUNCATED",),
         _bash(lambda m: m.get("truncated") is True and not m.get("fullOutputPath") and _shown(m))),
    Cell("bash", "a path, not truncated", ("PI-CONVERT-BASH-TRUNCATED",),
         _bash(lambda m: m.get("truncated") is False and bool(m.get("fullOutputPath")) and _shown(m))),
    Cell("bash", "excluded", ("PI-CONVERT-BASH-EXCLUDE",), _bash(lambda m: m.get("excludeFromContext") is True)),
    Cell("bash", "excludeFromContext false", ("PI-CONVERT-BASH-EXCLUDE",), _bash(lambda m: m.get("excludeFromContext") is False)),
    Cell("custom", "string content", ("PI-CONVERT-CUSTOM",), _converted(lambda m: m.get("role") == "custom" and isinstance(m.get("content"), str))),
    Cell("custom", "block content", ("PI-CONVERT-CUSTOM",), _converted(lambda m: m.get("role") == "custom" and isinstance(m.get("content"), list))),
    Cell("message", "malformed message of a known role", ("PI-MSG-REFUSE-INVALID",),
         _converted(lambda m: m.get("role") in ROLES and "timestamp" not in m)),
    Cell("message", "pending assistant message", ("PI-MSG-REFUSE-INVALID",),
         _converted(lambda m: m.get("role") == "assistant" and m.get("stopReason") == "pending")),
    *character_cells(("PI-CONVERT-BASH-TEXT",)),
]
"""The classes of ``pi.convert-to-llm``: every role, every branch of a bash execution's text
(output, output of white space only or none, exit codes, cancelled, truncated with and without a
path, excluded), custom content forms and malformed or pending messages."""


PARTITIONS: dict[str, list[Cell]] = {
    "pi.validate-message": VALIDATE_MESSAGE,
    "pi.replay-system": REPLAY_SYSTEM,
    "pi.convert-to-llm": CONVERT_TO_LLM,
}
