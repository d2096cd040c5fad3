"""The input classes of the profiles area's commands (PROF-DECISION-CONFIG-EDITS and the pickers):
``profiles.settings``, ``profiles.config-edit``, ``profiles.picker`` and ``profiles.session``."""

from __future__ import annotations

import json
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, case_pair_cells, character_cells, entries
from conformance.strategies.partitions.envelope import JS_SPACE, NOT_JS_SPACE, js_blank
from conformance.strategies.partitions.profiles import BEGIN, chains, configs, entry_bytes, profile_files, reference, wordy
from conformance.strategies.partitions.profiles_resolve import global_conflict_project_default, project_conflict_over_global

REGISTRY = {"subagents": ("bindings", "inherit", "off"), "inheritGlobalBindings": ("true", "false"),
            "selection": ("auto", "off"), "defaultProfile": ()}
"""The settings registry's keys and the values ``set`` accepts for each (PROF-SETTINGS-REGISTRY)."""


def _is(key: str, *values: Any) -> Hit:
    return lambda input, tree: input.get(key) in values


def _both(*hits: Hit) -> Hit:
    return lambda input, tree: all(h(input, tree) for h in hits)


def _value(test: Callable[[str, str], bool]) -> Hit:
    """The class of inputs whose ``value`` (a string) passes ``test(value, key)``."""
    return lambda input, tree: isinstance(input.get("value"), str) and test(input["value"], input.get("key") or "")


def _trim(text: str) -> str:
    """``text`` without JavaScript's white space around it, as PROF-SETTINGS-PARSE and
    PROF-PICKER-FILTER trim (``strip()`` would take U+0085 and U+001C..U+001F too and keep U+FEFF)."""
    return text.strip(JS_SPACE)


def _accepted(value: str, key: str) -> bool:
    return _trim(value) in REGISTRY.get(key, ())


def _near(value: str, key: str) -> bool:
    """A value that only differs from an accepted one in case or white space around it."""
    return not _accepted(value, key) and value != _trim(value) or (
        _trim(value).lower() in REGISTRY.get(key, ()) and _trim(value) not in REGISTRY.get(key, ()))


def _key_cells(clauses: tuple[str, ...], settable_only: bool = False) -> list[Cell]:
    keys = [Cell("key", k, clauses, _is("key", k)) for k in REGISTRY]
    if not settable_only:
        keys += [Cell("key", "a config key outside the registry", ("PROF-SETTINGS-PARSE",), _is("key", "version", "bindings", "profiles")),
                 Cell("key", "unknown", ("PROF-SETTINGS-PARSE",),
                      lambda i, t: isinstance(i.get("key"), str) and i["key"] not in REGISTRY
                      and i["key"] not in ("version", "bindings", "profiles"))]
    return keys


def _config(side: str, test: Callable[[Any], bool]) -> Hit:
    return lambda input, tree: side in input and test(input[side])


def _valid(key: str, config: Any) -> bool:
    if not isinstance(config, dict) or config.get("version") != 1 or key not in config:
        return False
    value = config[key]
    if key == "selection":
        return isinstance(value, dict) and value.get("mode") in ("auto", "off", "manual")
    if key == "inheritGlobalBindings":
        return isinstance(value, bool)
    if key == "subagents":
        return value in REGISTRY["subagents"]
    return isinstance(value, str)


SETTINGS = [
    *[Cell("action", a, ("PROF-SETTINGS-REGISTRY",) if a == "registry" else ("PROF-SETTINGS-PARSE",) if a == "parse"
           else ("PROF-SETTINGS-EFFECTIVE",), _is("action", a)) for a in ("registry", "parse", "effective")],
    *_key_cells(("PROF-SETTINGS-REGISTRY",)),
    Cell("parse", "a value the key accepts", ("PROF-SETTINGS-PARSE",), _both(_is("action", "parse"), _value(_accepted))),
    Cell("parse", "a value in another case or padded", ("PROF-SETTINGS-PARSE",), _both(_is("action", "parse"), _value(_near))),
    Cell("parse", "an empty value", ("PROF-SETTINGS-PARSE",), _both(_is("action", "parse"), _value(lambda v, k: v == ""))),
    Cell("parse", "a value no key accepts", ("PROF-SETTINGS-PARSE",),
         _both(_is("action", "parse"), _value(lambda v, k: _trim(v) != "" and not any(_trim(v).lower() in a for a in REGISTRY.values())))),
    Cell("parse", "selection manual (its own command)", ("PROF-SETTINGS-REGISTRY",),
         _both(_is("action", "parse"), _is("key", "selection"), _value(lambda v, k: _trim(v) == "manual"))),
    Cell("parse", "a project-only key in the global scope", ("PROF-SETTINGS-PARSE",),
         _both(_is("action", "parse"), _is("key", "inheritGlobalBindings"), _is("scope", "global"))),
    Cell("parse", "a key in the project scope", ("PROF-SETTINGS-PARSE",), _both(_is("action", "parse"), _is("scope", "project"))),
    Cell("parse, two problems", "a key outside the registry with a value no key accepts", ("PROF-SETTINGS-PARSE",),
         _both(_is("action", "parse"), lambda i, t: isinstance(i.get("key"), str) and i["key"] not in REGISTRY,
               _value(lambda v, k: not any(_trim(v) in a for a in REGISTRY.values())))),
    Cell("parse, two problems", "defaultProfile (removal only) with a value", ("PROF-SETTINGS-PARSE",),
         _both(_is("action", "parse"), _is("key", "defaultProfile"), _value(lambda v, k: True))),
    Cell("parse, two problems", "a project-only key in the global scope with a value it does not accept", ("PROF-SETTINGS-PARSE",),
         _both(_is("action", "parse"), _is("key", "inheritGlobalBindings"), _is("scope", "global"),
               _value(lambda v, k: not _accepted(v, k)))),
    Cell("effective", "from the project", ("PROF-SETTINGS-EFFECTIVE",),
         _both(_is("action", "effective"), lambda i, t: _valid(i.get("key"), i.get("project")))),
    Cell("effective", "from the global config, the project's invalid", ("PROF-SETTINGS-EFFECTIVE",),
         _both(_is("action", "effective"), lambda i, t: _valid(i.get("key"), i.get("global")) and isinstance(i.get("project"), dict)
               and i.get("key") in i["project"] and not _valid(i.get("key"), i["project"]))),
    Cell("effective", "from the global config, no project", ("PROF-SETTINGS-EFFECTIVE", "PROF-TRUST"),
         _both(_is("action", "effective"), lambda i, t: _valid(i.get("key"), i.get("global")) and i.get("project") is None)),
    Cell("effective", "the default", ("PROF-SETTINGS-EFFECTIVE",),
         _both(_is("action", "effective"), lambda i, t: not _valid(i.get("key"), i.get("global")) and not _valid(i.get("key"), i.get("project")))),
    Cell("effective", "a config of another version", ("PROF-SETTINGS-EFFECTIVE", "PROF-CONFIG-VERSION"),
         _both(_is("action", "effective"), lambda i, t: any(isinstance(i.get(s), dict) and i[s].get("version") != 1 for s in ("global", "project")))),
]
"""The classes of ``profiles.settings``: each action and key (and keys outside the registry),
values accepted, in another case or padded, empty, accepted by no key, ``selection manual``, a
project-only key set globally, and effective values from each origin; and parses with two
problems, one per pair PROF-SETTINGS-PARSE ranks that can meet (an unknown key with a bad value,
defaultProfile with a value, a project-only key set globally with a value it does not accept)."""


# --- profiles.config-edit --------------------------------------------------------------------------------------------

def _file(input: dict, tree: "dict | None") -> bytes | None:
    """The bytes of the edited scope's config.json, ``None`` when it is absent."""
    base = (input.get("agentDir") or "agent") + "/system-prompts/" if input.get("scope") == "global" \
        else (input.get("cwd") or "project") + "/.pi/system-prompts/"
    for path, entry in entries(tree):
        if path == base + "config.json":
            return entry_bytes(entry)
    return None


def _file_json(input: dict, tree: "dict | None") -> Any:
    data = _file(input, tree)
    try:
        return json.loads(data.decode("utf-8")) if data is not None else None
    except ValueError:
        return ValueError


def _json(test: Callable[[Any], bool]) -> Hit:
    return lambda input, tree: _file(input, tree) is not None and test(_file_json(input, tree))


def _untrusted(input: dict) -> bool:
    return input.get("scope") == "project" and not input.get("trusted")


def _setting_refused(input: dict) -> bool:
    """A request PROF-SETTINGS-PARSE (or, for unset, PROF-SETTINGS-UNSET) refuses whatever the file holds."""
    key = input.get("key")
    if key not in REGISTRY:
        return True
    if input.get("action") != "set":
        return False
    return key == "defaultProfile" or (key == "inheritGlobalBindings" and input.get("scope") == "global") \
        or not _accepted(input.get("value") or "", key)


def _editable(input: dict, tree: "dict | None") -> bool:
    value = _file_json(input, tree)
    return _file(input, tree) is None or (isinstance(value, dict) and value.get("version") == 1)


CONFIG_EDIT = [
    Cell("scope", "global", ("PROF-EDIT-TRUST",), _is("scope", "global")),
    Cell("scope", "project, trusted", ("PROF-EDIT-TRUST",), lambda i, t: i.get("scope") == "project" and bool(i.get("trusted"))),
    Cell("scope", "project, untrusted", ("PROF-EDIT-TRUST",), lambda i, t: i.get("scope") == "project" and not i.get("trusted")),
    Cell("action", "set", ("PROF-SETTINGS-APPLY",), _is("action", "set")),
    Cell("action", "unset", ("PROF-SETTINGS-UNSET",), _is("action", "unset")),
    *_key_cells(("PROF-SETTINGS-APPLY",)),
    Cell("value", "accepted", ("PROF-SETTINGS-APPLY",), _both(_is("action", "set"), _value(_accepted))),
    Cell("value", "refused", ("PROF-SETTINGS-PARSE",), _both(_is("action", "set"), _value(lambda v, k: not _accepted(v, k)))),
    Cell("file", "absent", ("PROF-EDIT-CREATE",), lambda i, t: _file(i, t) is None),
    Cell("file", "version 1", ("PROF-EDIT-VERSION",), _json(lambda v: isinstance(v, dict) and v.get("version") == 1)),
    Cell("file", "another version", ("PROF-EDIT-VERSION",), _json(lambda v: isinstance(v, dict) and v.get("version") != 1)),
    Cell("file", "not an object", ("PROF-EDIT-VERSION",), _json(lambda v: v is not ValueError and not isinstance(v, dict))),
    Cell("file", "not JSON", ("PROF-EDIT-VERSION",), _json(lambda v: v is ValueError)),
    Cell("file", "unknown keys", ("PROF-SETTINGS-APPLY", "PROF-CONFIG-UNKNOWN"),
         _json(lambda v: isinstance(v, dict) and v.get("version") == 1 and any(
             k not in ("version", "selection", "defaultProfile", "profiles", "bindings", "inheritGlobalBindings", "subagents")
             for k in v))),
    Cell("file", "text outside ASCII", ("PROF-EDIT-TEXT-KEPT",), lambda i, t: _editable(i, t) and not (_file(i, t) or b"").isascii()),
    Cell("file", "the key set", ("PROF-SETTINGS-UNSET",),
         lambda i, t: _editable(i, t) and isinstance(_file_json(i, t), dict) and i.get("key") in _file_json(i, t)),
    Cell("file", "unset of a key not set", ("PROF-SETTINGS-UNSET",),
         lambda i, t: i.get("action") == "unset" and _editable(i, t) and i.get("key") not in (_file_json(i, t) or {})),
    Cell("race", "the file changed before the write", ("PROF-EDIT-RACE",), lambda i, t: isinstance(i.get("outsideChange"), str)),
    Cell("race", "none", ("PROF-WRITE-ATOMIC", "PROF-EDIT-REVALIDATE"), lambda i, t: i.get("outsideChange") is None),
    Cell("two problems", "an untrusted project, the setting refused too", ("PROF-EDIT-TRUST", "PROF-SETTINGS-PARSE"),
         lambda i, t: _untrusted(i) and _setting_refused(i)),
    Cell("two problems", "an untrusted project, its file not editable too", ("PROF-EDIT-TRUST", "PROF-EDIT-VERSION"),
         lambda i, t: _untrusted(i) and not _editable(i, t)),
    Cell("two problems", "an untrusted project, unset of a key not set", ("PROF-EDIT-TRUST", "PROF-SETTINGS-UNSET"),
         lambda i, t: _untrusted(i) and i.get("action") == "unset" and i.get("key") in REGISTRY
         and i.get("key") not in (_file_json(i, t) if isinstance(_file_json(i, t), dict) else {})),
    Cell("two problems", "an untrusted project, its file changed while edited", ("PROF-EDIT-TRUST", "PROF-EDIT-RACE"),
         lambda i, t: _untrusted(i) and isinstance(i.get("outsideChange"), str)),
    Cell("two problems", "the setting refused, the file not editable", ("PROF-EDIT-TRUST", "PROF-SETTINGS-PARSE", "PROF-EDIT-VERSION"),
         lambda i, t: not _untrusted(i) and _setting_refused(i) and not _editable(i, t)),
    Cell("two problems", "a project-only key set globally with a value it does not accept", ("PROF-SETTINGS-PARSE",),
         lambda i, t: i.get("action") == "set" and i.get("scope") == "global" and i.get("key") == "inheritGlobalBindings"
         and not _accepted(i.get("value") or "", "inheritGlobalBindings")),
    Cell("two problems", "unset of a key not set, the file not editable", ("PROF-EDIT-TRUST", "PROF-EDIT-VERSION", "PROF-SETTINGS-UNSET"),
         lambda i, t: not _untrusted(i) and i.get("action") == "unset" and i.get("key") in REGISTRY and _file(i, t) is not None
         and not _editable(i, t)),
    Cell("two problems", "unset of a key not set, the file changed while edited", ("PROF-EDIT-TRUST", "PROF-EDIT-RACE", "PROF-SETTINGS-UNSET"),
         lambda i, t: not _untrusted(i) and i.get("action") == "unset" and i.get("key") in REGISTRY and _editable(i, t)
         and i.get("key") not in (_file_json(i, t) or {}) and isinstance(i.get("outsideChange"), str)),
    *character_cells(("PROF-EDIT-TEXT-KEPT",), lambda i, t: [(_file(i, t) or b"").decode("utf-8", "replace")]),
]
"""The classes of ``profiles.config-edit``: each scope and trust, set and unset of every key,
values accepted and refused, the file absent, of version 1, another version, not an object, not
JSON, with unknown keys, with text outside ASCII, holding the key or not, and changed while
edited; and requests with two problems, one per pair PROF-EDIT-TRUST ranks (trust against the
setting, the file, a key not set and a race; the setting against the file; a key not set against
the file and the race)."""


# --- profiles.picker -------------------------------------------------------------------------------------------------

def _act(action: str, test: Callable[[dict], bool] = lambda i: True) -> Hit:
    return lambda input, tree: input.get("action") == action and test(input)


def _names(input: dict) -> list[str]:
    return [m.get("provider") for m in input.get("models") or [] if isinstance(m, dict)]


def _ids(input: dict) -> list[str]:
    return [m.get("id") for m in input.get("models") or [] if isinstance(m, dict) and m.get("provider") == input.get("provider")]


def _order_differs(names: list[str]) -> bool:
    """Two names whose code point order and lower-case order differ (``B`` before ``a``)."""
    found = set(names)
    return any(a < b and a.lower() > b.lower() for a in found for b in found)


def _query(test: Callable[[str], bool]) -> Hit:
    return _act("filter", lambda i: isinstance(i.get("query"), str) and test(i["query"]))


def _window(test: Callable[[int, int, "int | None"], bool]) -> Hit:
    return _act("window", lambda i: isinstance(i.get("total"), int) and isinstance(i.get("selected"), int)
                and test(i["total"], i["selected"], i.get("terminalRows")))


PICKER = [
    *[Cell("action", a, ("PROF-PICKER-PROVIDERS",) if a in ("providers", "models") else ("PROF-PICKER-FILTER",) if a == "filter"
           else ("PROF-PICKER-WINDOW",) if a == "window" else ("PROF-PICKER-PAGES",) if a == "pages" else ("PROF-PICKER-BIND",),
           _act(a)) for a in ("providers", "models", "filter", "window", "pages", "bind")],
    Cell("providers", "none", ("PROF-PICKER-PROVIDERS",), _act("providers", lambda i: not _names(i))),
    Cell("providers", "a name repeated", ("PROF-PICKER-PROVIDERS",), _act("providers", lambda i: len(_names(i)) > len(set(_names(i))))),
    *[Cell("providers", c.name, ("PROF-PICKER-PROVIDERS",), _both(_act("providers"), c.hit))
      for c in case_pair_cells(("PROF-PICKER-PROVIDERS",), lambda i, t: _names(i))],
    Cell("providers", "code point and lower-case orders differing", ("PROF-PICKER-PROVIDERS",),
         _act("providers", lambda i: _order_differs(_names(i)))),
    Cell("providers", "a name outside ASCII", ("PROF-PICKER-PROVIDERS",), _act("providers", lambda i: any(not n.isascii() for n in _names(i)))),
    Cell("models", "ids holding /", ("PROF-PICKER-MODELS",), _act("models", lambda i: any("/" in m for m in _ids(i)))),
    Cell("models", "an id repeated", ("PROF-PICKER-MODELS",), _act("models", lambda i: len(_ids(i)) > len(set(_ids(i))))),
    Cell("models", "ids differing only in case", ("PROF-PICKER-MODELS",),
         _act("models", lambda i: any(a != b and a.lower() == b.lower() for a in _ids(i) for b in _ids(i)))),
    Cell("models", "a provider with no model", ("PROF-PICKER-MODELS",), _act("models", lambda i: not _ids(i))),
    Cell("filter", "an empty query", ("PROF-PICKER-FILTER",), _query(lambda q: q == "")),
    Cell("filter", "a blank query", ("PROF-PICKER-FILTER",), _query(lambda q: q != "" and js_blank(q))),
    Cell("filter", "a blank query of white space beyond ASCII", ("PROF-PICKER-FILTER",),
         _query(lambda q: q != "" and js_blank(q) and any(ord(c) > 0x7f for c in q))),
    Cell("filter", "U+FEFF alone (blank)", ("PROF-PICKER-FILTER",), _query(lambda q: q.strip("\ufeff") == "" and q != "")),
    Cell("filter", "U+FEFF inside the query (kept)", ("PROF-PICKER-FILTER",), _query(lambda q: "\ufeff" in _trim(q))),
    Cell("filter", "white space JavaScript keeps (U+0085, U+001C..U+001F) at an end", ("PROF-PICKER-FILTER",),
         _query(lambda q: q != "" and (q[0] in NOT_JS_SPACE or q[-1] in NOT_JS_SPACE))),
    Cell("filter", "a query in another case", ("PROF-PICKER-FILTER",),
         _query(lambda q: _trim(q) != "" and q != q.lower())),
    Cell("filter", "a query with white space around", ("PROF-PICKER-FILTER",), _query(lambda q: _trim(q) != "" and q != _trim(q))),
    Cell("filter", "a query matching nothing", ("PROF-PICKER-FILTER",),
         _act("filter", lambda i: isinstance(i.get("query"), str) and _trim(i["query"]) != ""
              and not any(_trim(i["query"]).lower() in x.lower() for x in i.get("items") or []))),
    Cell("filter", "no query", ("PROF-PICKER-FILTER",), _act("filter", lambda i: i.get("query") is None)),
    Cell("window", "no items", ("PROF-PICKER-WINDOW",), _window(lambda n, s, r: n == 0)),
    *[Cell("window", f"{k} items", ("PROF-PICKER-WINDOW",), _window(lambda n, s, r, k=k: n == k)) for k in (9, 10, 11)],
    Cell("window", "the selection first", ("PROF-PICKER-WINDOW",), _window(lambda n, s, r: n > 10 and s == 0)),
    Cell("window", "the selection in the middle", ("PROF-PICKER-WINDOW",), _window(lambda n, s, r: n > 10 and 5 < s < n - 6)),
    Cell("window", "the selection last", ("PROF-PICKER-WINDOW",), _window(lambda n, s, r: n > 10 and s == n - 1)),
    Cell("window", "no terminal height", ("PROF-PICKER-WINDOW",), _window(lambda n, s, r: r is None)),
    Cell("window", "a terminal of at most five rows", ("PROF-PICKER-WINDOW",), _window(lambda n, s, r: r is not None and r <= 5)),
    *[Cell("window", f"a terminal of {k} rows", ("PROF-PICKER-WINDOW",), _window(lambda n, s, r, k=k: r == k)) for k in (13, 14, 15)],
    *[Cell("pages", f"{k} items", ("PROF-PICKER-PAGES",), _act("pages", lambda i, k=k: len(i.get("items") or []) == k))
      for k in (0, 9, 10, 11, 20, 21)],
    Cell("bind", "no provider", ("PROF-PICKER-BIND",), _act("bind", lambda i: i.get("provider") is None)),
    Cell("bind", "a provider", ("PROF-PICKER-BIND",), _act("bind", lambda i: i.get("provider") not in (None, "*"))),
    Cell("bind", "*", ("PROF-PICKER-BIND",), _act("bind", lambda i: i.get("provider") == "*")),
    *character_cells(("PROF-PICKER-FILTER",)),
]
"""The classes of ``profiles.picker``: each action; providers none, repeated, differing only in
case, ordered differently by code point and lower case, outside ASCII; model ids with ``/``,
repeated, differing in case, none; queries empty, blank (and of white space beyond ASCII), U+FEFF
alone and inside, ending in white space JavaScript keeps, in another case, padded, matching nothing,
absent; windows of 0, 9, 10, 11 items, the selection
first, middle and last, terminals of no height, at most five rows, 13, 14, 15 rows;
pages of 0, 9, 10, 11, 20, 21 items; bind with no provider, one, and ``*``."""


# --- profiles.session ------------------------------------------------------------------------------------------------

def _steps(input: dict) -> list[dict]:
    return [s for s in input.get("steps") or [] if isinstance(s, dict)]


def _step(do: str, test: Callable[[dict], bool] = lambda s: True) -> Hit:
    return lambda input, tree: any(s.get("do") == do and test(s) for s in _steps(input))


def _then(first: Callable[[dict], bool], later: Callable[[dict], bool]) -> Hit:
    """A step passing ``first`` followed, later in the script, by one passing ``later``."""
    def hit(input: dict, tree: "dict | None") -> bool:
        steps = _steps(input)
        return any(first(a) and any(later(b) for b in steps[n + 1:]) for n, a in enumerate(steps))

    return hit


def _fails(name: str, input: dict, tree: "dict | None") -> bool:
    """Whether a pin's profile (a reference) is not loaded or its chain cannot be built."""
    if not reference(name):
        return False
    loaded = {(sc, n[:-3]) for sc, n, e in profile_files(input, tree) if n.lower().endswith(".md")
              and (sc == "global" or input.get("trusted"))}
    failing = {c[0] for c in chains(input, tree) if len(c) > 1 and (c[-1] in c[:-1] or c[-1] not in loaded)}
    scope, _, id = name.rpartition(":")
    found = [(sc, id) for sc in ((scope,) if scope else ("project", "global")) if (sc, id) in loaded]
    return not found or found[0] in failing


def _payload(test: Callable[[str], bool]) -> Hit:
    """A provider request whose payload's ``system`` (a string, ``""`` for none) passes ``test``."""
    return _step("providerRequest", lambda s: isinstance(s.get("payload"), dict)
                 and test(s["payload"].get("system") if isinstance(s["payload"].get("system"), str) else ""))


def _do(*names: str) -> Callable[[dict], bool]:
    return lambda s: s.get("do") in names


def _failed_read(input: dict, tree: "dict | None") -> bool:
    """failNextLoad right before an agent start that reads the disk: the first steps of the
    script, or right after a step that clears the cache (PROF-CACHE)."""
    steps = [s.get("do") for s in _steps(input)]
    return any(steps[n:n + 2] == ["failNextLoad", "agentStart"] and (n == 0 or steps[n - 1] in ("reload", "model", "resume", "cwd"))
               for n in range(len(steps)))


def _unset_not_held(input: dict, tree: "dict | None") -> bool:
    """An ``unset`` of a registry key that neither the scope's config.json on disk (none counts)
    nor an earlier step of the script set."""
    held = {scope: set(value) for scope, value in configs(input, tree) if isinstance(value, dict)}
    steps = _steps(input)
    return any(s.get("do") == "unset" and s.get("key") in REGISTRY and s.get("key") not in held.get(s.get("scope"), set())
               and not any(b.get("do") in ("set", "write", "commitEdit") for b in steps[:n])
               for n, s in enumerate(steps))


STEPS = ("select", "message", "navigate", "resume", "model", "cwd", "agentStart", "providerRequest", "preview", "write",
         "remove", "reload", "set", "unset", "beginEdit", "commitEdit", "failNextLoad")
SESSION = [
    *[Cell("step", do, ("PROF-SESSION-ENTRY",) if do in ("select", "message", "navigate", "resume") else
           ("PROF-CACHE",) if do in ("model", "cwd", "write", "remove", "reload") else
           ("PROF-OBSERVE-SEPARATE",) if do in ("agentStart", "providerRequest", "preview") else
           ("PROF-HOOK-FAILURE",) if do == "failNextLoad" else ("PROF-EDIT-BASELINE",), _step(do)) for do in STEPS],
    *[Cell("select", mode, ("PROF-SESSION-ENTRY",), _step("select", lambda s, m=mode: s.get("mode") == m))
      for mode in ("auto", "manual", "off")],
    Cell("select", "manual with a bare name", ("PROF-REF-SESSION",),
         _step("select", lambda s: s.get("mode") == "manual" and isinstance(s.get("profile"), str) and ":" not in s["profile"])),
    Cell("select", "manual of a profile that cannot be built, after a valid one", ("PROF-SELECTION-KEEP",),
         lambda i, t: _then(_do("select"), lambda s: s.get("do") == "select" and s.get("mode") == "manual"
                            and isinstance(s.get("profile"), str) and _fails(s["profile"], i, t))(i, t)),
    Cell("select", "manual, a name of word characters outside the id set", ("PROF-ID", "PROF-SELECTION-INVALID"),
         _step("select", lambda s: s.get("mode") == "manual" and wordy(str(s.get("profile")).rpartition(":")[2]))),
    Cell("select", "manual, a name that is not a reference", ("PROF-SELECTION-INVALID",),
         _step("select", lambda s: s.get("mode") == "manual" and s.get("profile") in ("a b", "other:base", "global:", ":base"))),
    Cell("branch", "navigate back past a selection", ("PROF-SESSION-RESTORE",),
         _then(_do("select"), lambda s: s.get("do") == "navigate" and s.get("to") is not None)),
    Cell("branch", "a selection on another branch, then resume", ("PROF-SESSION-RESTORE",),
         _then(_do("navigate"), _do("resume"))),
    Cell("cache", "a change on disk, then agent start before a reload", ("PROF-CACHE",), _then(_do("write", "remove"), _do("agentStart"))),
    Cell("cache", "a change on disk, then a reload or a model change", ("PROF-CACHE",), _then(_do("write", "remove"), _do("reload", "model", "resume"))),
    Cell("cache", "another cwd", ("PROF-CACHE",), _step("cwd", lambda s: s.get("path") not in (None, "project"))),
    Cell("observe", "agent start, then the provider request", ("PROF-OBSERVE-SEPARATE", "PROF-OBSERVE-READONLY"),
         _then(_do("agentStart"), _do("providerRequest"))),
    Cell("observe", "a payload with the composed prompt", ("PROF-OBSERVE-READONLY",), _payload(lambda p: p == "<composed>")),
    Cell("observe", "the composed block over another base prompt", ("PROF-OBSERVE-READONLY",),
         _payload(lambda p: p.startswith("<block>") and p != "<block>")),
    Cell("observe", "another block", ("PROF-OBSERVE-READONLY",), _payload(lambda p: BEGIN in p)),
    Cell("observe", "a payload without a block", ("PROF-OBSERVE-READONLY",),
         _payload(lambda p: not p.startswith(("<composed>", "<block>")) and BEGIN not in p)),
    Cell("hook", "a failed read met by agent start", ("PROF-HOOK-FAILURE",), _failed_read),
    Cell("edit", "a config set over a session pin", ("PROF-EDIT-BASELINE",),
         _then(lambda s: s.get("do") == "select" and s.get("mode") == "manual", _do("set", "unset", "commitEdit"))),
    Cell("edit", "a config set with no session selection", ("PROF-EDIT-BASELINE",),
         lambda i, t: any(s.get("do") in ("set", "unset") for s in _steps(i)) and not any(s.get("do") == "select" for s in _steps(i))),
    Cell("edit", "a write between beginEdit and commitEdit", ("PROF-EDIT-RACE",),
         lambda i, t: _then(_do("beginEdit"), _do("write"))(i, t) and _then(_do("write"), _do("commitEdit"))(i, t)),
    Cell("edit", "commitEdit without beginEdit", ("PROF-EDIT-RACE",),
         lambda i, t: bool(_steps(i)) and any(s.get("do") == "commitEdit" for s in _steps(i))
         and not _then(_do("beginEdit"), _do("commitEdit"))(i, t)),
    Cell("edit", "unset of a registry key the config does not hold", ("PROF-SETTINGS-UNSET",), _unset_not_held),
    Cell("edit", "unset of a key outside the registry", ("PROF-SETTINGS-UNSET",),
         _step("unset", lambda s: isinstance(s.get("key"), str) and s["key"] not in REGISTRY)),
    Cell("resolution", "a project conflict over a matching global binding", ("PROF-RESOLVE-CONFLICT",), project_conflict_over_global),
    Cell("resolution", "a conflict in the global config beside a project default", ("PROF-RESOLVE-CONFLICT", "PROF-AUTO-ORDER"),
         global_conflict_project_default),
    Cell("chain", "a project profile extending the global profile of its id", ("PROF-REF", "PROF-INHERIT-CYCLE"),
         lambda i, t: bool(i.get("trusted")) and any(len(set(c)) == len(c) and c[0][0] == "project" and c[1:2] == [("global", c[0][1])]
                                                     for c in chains(i, t))),
    Cell("chain", "a cycle reached from the other scope", ("PROF-INHERIT-CYCLE",),
         lambda i, t: bool(i.get("trusted")) and any(c[-1] in c[:-1] and len({s for s, n in c}) == 2 for c in chains(i, t))),
    Cell("start", "no model", ("PROF-AUTO-NO-MODEL",), lambda i, t: i.get("model") is None),
    Cell("start", "a subagent child", ("PROF-SUBAGENT-DETECT",), lambda i, t: (i.get("env") or {}).get("PI_SUBAGENT_CHILD") == "1"),
    Cell("start", "an untrusted project", ("PROF-TRUST",), lambda i, t: not i.get("trusted")),
]
"""The classes of ``profiles.session``: every step kind; each selection mode, bare names,
refused and invalid pins (names of word characters outside the id set among them); branches
navigated and resumed past selections; changes on disk seen before and after a reload; another
cwd; agent start then the provider request with each payload; a failed read; config edits with
and without a session pin, raced, and committed unbegun; conflicts resolved at agent start (the
project's over a matching global binding, the global one beside a project default); chains
across scopes (a project profile extending the global one of its id, a cycle reached from the
other scope); a start with no model, as a child, untrusted."""


PARTITIONS: dict[str, list[Cell]] = {
    "profiles.settings": SETTINGS,
    "profiles.config-edit": CONFIG_EDIT,
    "profiles.picker": PICKER,
    "profiles.session": SESSION,
}
