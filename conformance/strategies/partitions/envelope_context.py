"""The input classes of the envelope area's context files, whole build and audit setting
(ENV-DECISION-CONTEXT-FILES, ENV-DECISION-AUDIT): ``envelope.context-message``,
``envelope.context-hook``, ``envelope.build`` and ``envelope.settings``."""

from __future__ import annotations

import posixpath
import re
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, character_cells
from conformance.strategies.partitions.envelope import (DEVELOPER_MESSAGES, ENVIRONMENT, INSTRUCTIONS, JS_SPACE,
                                                         NOT_JS_SPACE, contribution_cells, host_cells, js_blank)

DIVIDER = "\n\n--- project-doc ---\n\n"
AUDIT_TYPES = ("@luan.sh/pi-developer-messages/group", "@luan.sh/pi-developer-messages/developer",
               "@luan.sh/pi-developer-messages/context-user")
AGENTS_MD = "@luan.sh/pi-developer-messages/agents-md"


def _norm(path: str) -> str:
    return path.replace("\\", "/").rstrip("/")


def _directory(path: str) -> str:
    """A file's directory as ENV-CTX-AGENTDIR compares it: up to the last slash, slashes made alike."""
    return _norm(path).rpartition("/")[0]


def _in_agent_dir(path: str, agent_dir: Any) -> bool:
    """ENV-CTX-AGENTDIR: the file's directory equals the agent directory, slashes made alike."""
    return isinstance(agent_dir, str) and agent_dir != "" and _directory(path) == _norm(agent_dir)


def _resolved(path: str) -> str:
    """``path`` with slashes made alike, then ``.``, ``..`` and repeated slashes resolved: the
    normalisation ENV-CTX-AGENTDIR does not do, which the near misses below are near."""
    return posixpath.normpath(_norm(path) or "/")


def _holds(path: str, segment: str) -> bool:
    return segment in _norm(path).split("/")


def context_cells(files: Callable[[dict], list], agent_dir: Callable[[dict], Any], cwd: Callable[[dict], Any]) -> list[Cell]:
    """The classes of context files read from an input by ``files``, ``agent_dir`` and ``cwd``."""
    def all_files(i: dict) -> list[dict]:
        return [f for f in files(i) if isinstance(f, dict)]

    def kept(i: dict) -> list[dict]:
        return [f for f in all_files(i) if not js_blank(f.get("content") or "")]

    def each(test: Callable[[dict, dict], bool]) -> Hit:
        return lambda i, t: any(test(f, i) for f in all_files(i))

    def first_global(i: dict) -> bool:
        return bool(kept(i)) and _in_agent_dir(kept(i)[0].get("path") or "", agent_dir(i))

    def text(test: Callable[[str], bool]) -> Hit:
        return each(lambda f, i: test(f.get("content") or ""))

    def near_first(test: Callable[[str, str], bool]) -> Hit:
        """The first kept file (more kept) is not in the agent directory, and ``test(its
        directory, the agent directory)``, both with slashes made alike, holds: a near miss the
        divider would show."""
        def hit(i: dict, t: "dict | None") -> bool:
            a = agent_dir(i)
            if not (isinstance(a, str) and a and len(kept(i)) >= 2) or first_global(i):
                return False
            return test(_directory(kept(i)[0].get("path") or ""), _norm(a))
        return hit

    def same_resolved(test: Callable[[str, str], bool]) -> Hit:
        return near_first(lambda d, a: _resolved(d) == _resolved(a) and test(d, a))

    return [
        Cell("files", "none", ("ENV-CTX-NONE",), lambda i, t: not all_files(i)),
        Cell("files", "all blank", ("ENV-CTX-NONE", "ENV-CTX-BLANK"), lambda i, t: bool(all_files(i)) and not kept(i)),
        Cell("files", "one kept", ("ENV-CTX-JOIN",), lambda i, t: len(kept(i)) == 1),
        Cell("files", "several kept", ("ENV-CTX-JOIN",), lambda i, t: len(kept(i)) >= 2),
        Cell("content", "empty", ("ENV-CTX-BLANK",), text(lambda s: s == "")),
        Cell("content", "white space ASCII only", ("ENV-CTX-BLANK",), text(lambda s: s != "" and s.isascii() and js_blank(s))),
        Cell("content", "white space beyond ASCII", ("ENV-CTX-BLANK", "ENV-TRIM-JS"),
             text(lambda s: s != "" and js_blank(s) and not s.isascii())),
        Cell("content", "only white space ENV-TRIM-JS keeps", ("ENV-CTX-BLANK", "ENV-TRIM-JS"),
             text(lambda s: s != "" and all(c in JS_SPACE + NOT_JS_SPACE for c in s) and any(c in NOT_JS_SPACE for c in s))),
        Cell("content", "padded", ("ENV-CTX-BLANK",), text(lambda s: not js_blank(s) and s != s.strip(JS_SPACE))),
        Cell("content", "holding the project-doc divider", ("ENV-CTX-DIVIDER",), text(lambda s: "--- project-doc ---" in s)),
        Cell("agent directory", "the first kept file in it, more kept", ("ENV-CTX-DIVIDER",),
             lambda i, t: first_global(i) and len(kept(i)) >= 2),
        Cell("agent directory", "the first kept file in it, alone", ("ENV-CTX-JOIN",), lambda i, t: first_global(i) and len(kept(i)) == 1),
        Cell("agent directory", "the first kept after blank files", ("ENV-CTX-DIVIDER", "ENV-CTX-BLANK"),
             lambda i, t: first_global(i) and all_files(i)[0] is not kept(i)[0]),
        Cell("agent directory", "a file in it, not first", ("ENV-CTX-JOIN",),
             lambda i, t: any(_in_agent_dir(f.get("path") or "", agent_dir(i)) for f in kept(i)[1:]) and not first_global(i)),
        Cell("agent directory", "a file in a folder below it", ("ENV-CTX-AGENTDIR",),
             each(lambda f, i: isinstance(agent_dir(i), str) and bool(agent_dir(i))
                  and _norm(f.get("path") or "").startswith(_norm(agent_dir(i)) + "/") and not _in_agent_dir(f.get("path") or "", agent_dir(i)))),
        Cell("agent directory", "a sibling folder sharing its prefix", ("ENV-CTX-AGENTDIR",),
             each(lambda f, i: isinstance(agent_dir(i), str) and bool(agent_dir(i))
                  and _norm(f.get("path") or "").startswith(_norm(agent_dir(i))) and not _norm(f.get("path") or "").startswith(_norm(agent_dir(i)) + "/"))),
        Cell("agent directory", "the first kept file's directory the same but for letter case, more kept",
             ("ENV-CTX-AGENTDIR", "ENV-CTX-JOIN"), near_first(lambda d, a: d.lower() == a.lower())),
        Cell("agent directory", "the first kept file's directory holding '..', the same once resolved, more kept",
             ("ENV-CTX-AGENTDIR", "ENV-CTX-JOIN"), same_resolved(lambda d, a: _holds(d, ".."))),
        Cell("agent directory", "itself holding '..', the first kept file in the directory it resolves to, more kept",
             ("ENV-CTX-AGENTDIR", "ENV-CTX-JOIN"), same_resolved(lambda d, a: _holds(a, ".."))),
        Cell("agent directory", "the first kept file's directory or it holding a '.' segment, the same once resolved, more kept",
             ("ENV-CTX-AGENTDIR", "ENV-CTX-JOIN"), same_resolved(lambda d, a: _holds(d, ".") or _holds(a, "."))),
        Cell("agent directory", "the first kept file's directory or it holding a doubled slash, the same once resolved, more kept",
             ("ENV-CTX-AGENTDIR", "ENV-CTX-JOIN"), same_resolved(lambda d, a: "//" in d.lstrip("/") or "//" in a.lstrip("/"))),
        Cell("agent directory", "written with a trailing slash", ("ENV-CTX-AGENTDIR",),
             lambda i, t: isinstance(agent_dir(i), str) and agent_dir(i).endswith("/")),
        Cell("agent directory", "written with backslashes", ("ENV-CTX-AGENTDIR",),
             lambda i, t: isinstance(agent_dir(i), str) and "\\" in agent_dir(i)),
        Cell("agent directory", "none", ("ENV-CTX-AGENTDIR",), lambda i, t: not agent_dir(i)),
        Cell("path", "relative", ("ENV-CTX-AGENTDIR",), each(lambda f, i: bool(f.get("path")) and not re.match(r"/|[A-Za-z]:", f["path"]))),
        Cell("cwd", "backslashes", ("ENV-CWD-SLASHES",), lambda i, t: "\\" in (cwd(i) or "")),
    ]


CONTEXT_MESSAGE = [
    *context_cells(lambda i: i.get("contextFiles") or [], lambda i: i.get("agentDir"), lambda i: i.get("cwd")),
    *character_cells(("ENV-CTX-FORMAT",)),
]
"""The classes of ``envelope.context-message``: no file, all blank, one or several kept,
contents empty, blank in ASCII and beyond, of white space ENV-TRIM-JS keeps, padded, holding the
divider; the agent directory's file first (alone, among others, after blank files), not first,
files below it and beside it, the directory written with a slash, backslashes or not at all; a
first file near the agent directory (another letter case, a '..', '.' or doubled slash on either
side that resolving would remove) followed by another."""


def _messages(test: Callable[[dict], bool]) -> Hit:
    return lambda i, t: any(isinstance(m, dict) and test(m) for m in i.get("messages") or [])


def _first(test: Callable[[dict], bool]) -> Hit:
    def hit(i: dict, t: "dict | None") -> bool:
        messages = i.get("messages") or []
        return bool(messages) and isinstance(messages[0], dict) and test(messages[0])
    return hit


CONTEXT_HOOK = [
    *[c for c in context_cells(lambda i: i.get("contextFiles") or [], lambda i: i.get("agentDir"), lambda i: i.get("cwd"))
      if c.dimension == "files" or c.dimension == "agent directory" and c.clauses[0] == "ENV-CTX-AGENTDIR" and c.name != "none"],
    Cell("history", "empty", ("ENV-CTX-INJECT",), lambda i, t: not i.get("messages")),
    Cell("history", "an earlier context-files message", ("ENV-CTX-INJECT", "ENV-CTX-REMOVE"),
         _messages(lambda m: m.get("customType") == AGENTS_MD)),
    *[Cell("history", f"an audit message of type {k.rsplit('/', 1)[1]}", ("ENV-AUDIT-STRIP", "ENV-AUDIT-EARLIER"),
           _messages(lambda m, k=k: m.get("customType") == k)) for k in AUDIT_TYPES],
    Cell("history", "an audit message without a role field", ("ENV-AUDIT-STRIP",),
         _messages(lambda m: "role" not in m and m.get("customType") in AUDIT_TYPES)),
    Cell("history", "a message of an audit type with another role", ("ENV-AUDIT-STRIP",),
         _messages(lambda m: "role" in m and m.get("role") != "custom" and m.get("customType") in AUDIT_TYPES)),
    Cell("history", "a message of the context-files type with another role", ("ENV-CTX-INJECT",),
         _messages(lambda m: "role" in m and m.get("role") != "custom" and m.get("customType") == AGENTS_MD)),
    Cell("history", "another extension's custom message", ("ENV-AUDIT-STRIP",),
         _messages(lambda m: m.get("role") == "custom" and m.get("customType") not in AUDIT_TYPES + (AGENTS_MD,))),
    Cell("history", "messages of other roles", ("ENV-CTX-INJECT",), _messages(lambda m: m.get("role") != "custom")),
    Cell("history", "a system message first", ("ENV-CTX-INJECT",), _first(lambda m: m.get("role") == "system")),
    Cell("history", "system messages only", ("ENV-CTX-INJECT",),
         lambda i, t: bool(i.get("messages")) and all(isinstance(m, dict) and m.get("role") == "system" for m in i["messages"])),
    Cell("history", "a message without a role first", ("ENV-CTX-INJECT",), _first(lambda m: "role" not in m)),
    Cell("history", "an earlier context-files message without a role field", ("ENV-CTX-INJECT",),
         _messages(lambda m: "role" not in m and m.get("customType") == AGENTS_MD)),
    Cell("history", "several to keep in order", ("ENV-AUDIT-STRIP",),
         lambda i, t: sum(1 for m in i.get("messages") or [] if isinstance(m, dict)
                          and m.get("customType") not in AUDIT_TYPES + (AGENTS_MD,)) >= 2),
]
"""The classes of ``envelope.context-hook``: files none, all blank, one or several kept (the
others are ``envelope.context-message``'s), and a history that is
empty or holds an earlier context-files message, audit messages of each type, one without a
role field, a message of an audit type with another role, another extension's custom message,
messages of other roles, several to keep in order; a history that starts with a system message,
holds system messages only or starts with a message without a role, and an earlier
context-files message without a role field."""


REQUEST_FIELDS = ("sessionId", "provider", "activeTools", "prompt", "systemPrompt", "agentDir", "host")
"""The request's fields besides its cwd, which Pi's options may hold too."""


def _request(i: dict) -> dict:
    found = i.get("request")
    return found if isinstance(found, dict) else {}


def _options(i: dict) -> dict:
    found = _request(i).get("systemPromptOptions")
    return found if isinstance(found, dict) else {}


BUILD = [
    *[c for c in contribution_cells(lambda i: i.get("contributions") or [], lambda i: _request(i).get("provider"),
                                    lambda i: _request(i).get("activeTools") or [], lambda i: _request(i).get("prompt"))
      if c.dimension == "contributions" or c.name in ("raises", "listed, the provider among them", "environment",
                                                       "ranked equal, UTF-16 code units ordering them otherwise than code points",
                                                       "environment in another case",
                                                       "listed, the provider not among them", "unknown (none given)",
                                                       "blank, with a priority that is not a finite number",
                                                       "environment, with a priority that is not a finite number",
                                                       "raises, of a refused contribution")],
    *[Cell(f"request {c.dimension}", c.name, c.clauses, (lambda i, t, c=c: c.hit(_request(i), t)))
      for c in host_cells(lambda r: r.get("host"), lambda r: r.get("activeTools") or [], lambda r: r.get("cwd"))
      if c.dimension == "cwd" and c.name == "backslashes" or c.dimension == "date" and c.name != "a date"],
    Cell("request", "no host", ("ENV-DECISION-ENVIRONMENT",), lambda i, t: _request(i).get("host") is None),
    Cell("request", "Pi's prompt null", ("ENV-INSTR-DEFAULT",), lambda i, t: _request(i).get("systemPrompt") is None),
    Cell("request", "Pi's prompt given", ("ENV-INSTR-DEFAULT",), lambda i, t: bool(_request(i).get("systemPrompt"))),
    Cell("request", "a custom prompt", ("ENV-INSTR-CUSTOM",), lambda i, t: bool(_options(i).get("customPrompt"))),
    Cell("request", "an appended prompt", ("ENV-INSTR-CUSTOM",), lambda i, t: bool(_options(i).get("appendSystemPrompt"))),
    *[Cell(f"request {c.dimension}", c.name, c.clauses, (lambda i, t, c=c: c.hit(i, t)))
      for c in context_cells(lambda i: _options(i).get("contextFiles") or [], lambda i: _request(i).get("agentDir"),
                             lambda i: _request(i).get("cwd"))
      if c.name in ("none", "all blank", "several kept", "the first kept file in it, more kept")
      or c.dimension == "agent directory" and c.clauses[0] == "ENV-CTX-AGENTDIR" and c.name != "none"],
    Cell("request", "options' cwd other than the request's", ("ENV-RENDER-OPTIONS",),
         lambda i, t: isinstance(_options(i).get("cwd"), str) and _options(i)["cwd"] != _request(i).get("cwd")),
    Cell("request", "options' cwd other than the request's, a context file kept", ("ENV-RENDER-OPTIONS", "ENV-CTX-FORMAT"),
         lambda i, t: isinstance(_options(i).get("cwd"), str) and _options(i)["cwd"] != _request(i).get("cwd")
         and any(isinstance(f, dict) and not js_blank(f.get("content") or "") for f in _options(i).get("contextFiles") or [])),
    Cell("request", "options holding another field of the request, another value", ("ENV-RENDER-OPTIONS",),
         lambda i, t: any(k in _options(i) and _options(i)[k] != _request(i).get(k) for k in REQUEST_FIELDS)),
    *character_cells(("ENV-RENDER-CONTENT",)),
]
"""The classes of ``envelope.build``: what one whole request adds to the parts that
``envelope.developer-messages``, ``envelope.environment`` and ``envelope.context-message`` declare
the classes of: contributions none or several, one that raises, providers filtering, a blank or
reserved id beside a priority that is not a number, a refused one whose content would raise; no
host, a host date of another form, of the form but no calendar's day, February 29 of a leap year, a
cwd with backslashes, Pi's prompt null or given, a custom and an appended prompt, context files none,
blank, several, the agent directory's first, and the options' own cwd (also with a context file
kept) and fields of the request the options hold with other values."""


def _toml(test: Callable[[str], bool]) -> Hit:
    return lambda i, t: isinstance(i.get("toml"), str) and test(i["toml"])


def _value(test: Callable[[str], bool]) -> Hit:
    """The class of texts whose auditEntries value (the text after ``=``) passes ``test``."""
    def hit(i: dict, t: "dict | None") -> bool:
        m = re.search(r"^\s*pi-developer-messages\.auditEntries\s*=\s*(.*)$", i.get("toml") or "", re.M)
        return bool(m) and test(m.group(1).strip())

    return hit


def _roles(value: str) -> list[str] | None:
    m = re.fullmatch(r"\[(.*)\]", value)
    if not m:
        return None
    return re.findall(r'"([^"]*)"', m.group(1)) if m.group(1).strip() else []


SETTINGS = [
    Cell("file", "none", ("ENV-AUDIT-TOML",), lambda i, t: i.get("toml") is None),
    Cell("file", "empty", ("ENV-AUDIT-TOML",), _toml(lambda s: s.strip() == "")),
    Cell("file", "no key", ("ENV-AUDIT-TOML",), _toml(lambda s: s.strip() != "" and "auditEntries" not in s)),
    Cell("file", "not TOML", ("ENV-AUDIT-SETTING-INVALID",), _toml(lambda s: "= =" in s or s.count("[") > s.count("]"))),
    Cell("file", "the key outside [appearance]", ("ENV-AUDIT-TOML",),
         _toml(lambda s: "auditEntries" in s and not re.search(r"^\[appearance\]\s*\n(?:(?!\[).*\n)*?\s*pi-developer-messages\.auditEntries", s, re.M))),
    Cell("value", "both roles", ("ENV-AUDIT-SETTING",), _value(lambda v: sorted(_roles(v) or []) == ["context-user", "developer"])),
    Cell("value", "both roles, the other order", ("ENV-AUDIT-SETTING",), _value(lambda v: (_roles(v) or []) == ["context-user", "developer"])),
    Cell("value", "developer only", ("ENV-AUDIT-SETTING",), _value(lambda v: _roles(v) == ["developer"])),
    Cell("value", "context-user only", ("ENV-AUDIT-SETTING",), _value(lambda v: _roles(v) == ["context-user"])),
    Cell("value", "empty", ("ENV-AUDIT-SETTING",), _value(lambda v: _roles(v) == [])),
    Cell("value", "a role repeated", ("ENV-AUDIT-SETTING",), _value(lambda v: len(_roles(v) or []) > len(set(_roles(v) or [])))),
    Cell("value", "another role", ("ENV-AUDIT-SETTING-INVALID",),
         _value(lambda v: any(r not in ("developer", "context-user") for r in _roles(v) or []))),
    Cell("value", "a role in another case", ("ENV-AUDIT-SETTING-INVALID",),
         _value(lambda v: any(r not in ("developer", "context-user") and r.lower() in ("developer", "context-user")
                              for r in _roles(v) or []))),
    Cell("value", "a role with white space around it", ("ENV-AUDIT-SETTING-INVALID",),
         _value(lambda v: any(r != r.strip() and r.strip() in ("developer", "context-user") for r in _roles(v) or []))),
    Cell("value", "not a list of strings", ("ENV-AUDIT-SETTING-INVALID",),
         _value(lambda v: _roles(v) is None or (v.strip("[] ") != "" and not _roles(v)))),
]
"""The classes of ``envelope.settings``: no file, an empty one, one without the key, one that is
not TOML, the key outside its table; the value with both roles in either order, one, none, a
role repeated, another role, and not a list of strings."""


PARTITIONS: dict[str, list[Cell]] = {
    "envelope.instructions": INSTRUCTIONS,
    "envelope.environment": ENVIRONMENT,
    "envelope.developer-messages": DEVELOPER_MESSAGES,
    "envelope.context-message": CONTEXT_MESSAGE,
    "envelope.context-hook": CONTEXT_HOOK,
    "envelope.build": BUILD,
    "envelope.settings": SETTINGS,
}
