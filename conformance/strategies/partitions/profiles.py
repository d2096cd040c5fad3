"""The input classes of the profiles area's loading operations (PROF-DECISION-LOADING,
-INHERITANCE, -CONFIG): ``profiles.load`` (profile files of both scopes, their chains) and
``profiles.config`` (one ``config.json``, key by key)."""

from __future__ import annotations

import base64
import json
import math
import re
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, character_cells, entries

ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
ID_LIMIT = 64
SIZE_LIMIT = 65_536
CHAIN_BYTES = 262_144
LAYERS = 8
BEGIN = "<!-- system-instructions:begin v1 -->"
END = "<!-- system-instructions:end -->"
BOM = b"\xef\xbb\xbf"


def good_id(name: Any) -> bool:
    """Whether ``name`` is a profile id (PROF-ID)."""
    return isinstance(name, str) and bool(ID.fullmatch(name)) and len(name) <= ID_LIMIT and ".." not in name


WORDY = re.compile(r"[\w][\w.-]*")
"""The id rule written with Unicode word characters, which the id set is not (PROF-ID is ASCII)."""


def _broken_at_end(name: Any) -> bool:
    """Whether ``name`` is no id only because a line break ends or starts it (an id matched with
    an end anchor that allows a final line break, as Python's ``$`` does, takes ``"review\n"``)."""
    return isinstance(name, str) and name != name.strip("\n") and good_id(name.strip("\n"))


def wordy(name: Any) -> bool:
    """Whether ``name`` is no id only because it holds word characters outside the id set: a
    leading underscore, or a letter or digit beyond ASCII (``_fast``, ``café``, ``\u0663``)."""
    return (isinstance(name, str) and not good_id(name) and WORDY.fullmatch(name) is not None
            and ".." not in name and len(name) <= ID_LIMIT)


def beyond_ascii_word(name: Any) -> bool:
    """Whether ``name`` holds a letter or digit beyond ASCII (``é``, ``ß``, Cyrillic, beyond the
    BMP, an Arabic-Indic or fullwidth digit)."""
    return isinstance(name, str) and any(c.isalnum() and not c.isascii() for c in name)


def reference(value: Any) -> bool:
    """Whether ``value`` is a profile reference: an id, ``global:ID`` or ``project:ID`` (PROF-REF)."""
    if not isinstance(value, str):
        return False
    scope, _, rest = value.rpartition(":")
    return good_id(rest) and scope in ("", "global", "project") and (scope != "" or ":" not in value)


def entry_bytes(entry: dict) -> bytes | None:
    """A file entry's bytes, ``None`` for a link or a directory."""
    if entry.get("text") is not None:
        return entry["text"].encode("utf-8")
    if entry.get("base64") is not None:
        return base64.b64decode(entry["base64"])
    if entry.get("fill") is not None:
        need = entry.get("size") or 0
        prefix = (entry.get("prefix") or "").encode("utf-8")
        return (prefix + entry["fill"].encode("utf-8") * (need + 1))[:need]
    return None


def _dirs(input: dict) -> dict[str, str]:
    """Each scope's system-prompts/ directory, as a tree path prefix (PROF-PROJECT-DIR)."""
    def norm(path: Any) -> str:
        return str(path or ".").strip("/").removeprefix("./")

    return {"global": norm(input.get("agentDir")) + "/system-prompts/",
            "project": norm(input.get("cwd")) + "/.pi/system-prompts/"}


def scope_entries(input: dict, tree: "dict | None") -> list[tuple[str, str, dict]]:
    """The tree's entries below a scope's system-prompts/ directory: ``(scope, rest, entry)``."""
    found = []
    for path, entry in entries(tree):
        for scope, prefix in _dirs(input).items():
            if path.startswith(prefix):
                found.append((scope, path[len(prefix):], entry))
    return found


def profile_files(input: dict, tree: "dict | None") -> list[tuple[str, str, dict]]:
    """The entries directly in a scope's profiles/ directory: ``(scope, name, entry)``."""
    return [(s, rest[len("profiles/"):], e) for s, rest, e in scope_entries(input, tree)
            if rest.startswith("profiles/") and "/" not in rest[len("profiles/"):]]


def _stem(name: str) -> str | None:
    return name[:-3] if name.lower().endswith(".md") else None


def _profile(test: Callable[[str, str, dict], bool]) -> Hit:
    """The class of trees with an entry of profiles/ (``scope, name, entry``) that passes ``test``."""
    return lambda input, tree: any(test(s, n, e) for s, n, e in profile_files(input, tree))


def _body(test: Callable[[bytes], bool]) -> Hit:
    """The class of trees with a profile file whose bytes pass ``test``."""
    def check(scope: str, name: str, entry: dict) -> bool:
        data = entry_bytes(entry)
        return _stem(name) is not None and data is not None and test(data)

    return _profile(check)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _body_size(data: bytes) -> int:
    return len(data) - (3 if data.startswith(BOM) else 0)


def configs(input: dict, tree: "dict | None") -> list[tuple[str, Any]]:
    """Each scope's config.json read as JSON: ``(scope, value)``; a text that is not JSON is left out."""
    found = []
    for scope, rest, entry in scope_entries(input, tree):
        data = entry_bytes(entry) if rest == "config.json" else None
        if data is None:
            continue
        try:
            found.append((scope, json.loads(data.decode("utf-8"))))
        except ValueError:
            continue
    return found


def _metadata(input: dict, tree: "dict | None") -> list[tuple[str, str, Any]]:
    """Every profile's metadata in the configs: ``(scope, id, extends or the string 'absent')``."""
    found = []
    for scope, config in configs(input, tree):
        profiles = config.get("profiles") if isinstance(config, dict) else None
        for name, meta in (profiles.items() if isinstance(profiles, dict) else []):
            if isinstance(meta, dict):
                found.append((scope, name, meta["extends"] if "extends" in meta else "absent"))
    return found


def chains(input: dict, tree: "dict | None") -> list[list[tuple[str, str]]]:
    """The chain of every loaded profile, ``[(scope, id), ...]`` from the profile to its last
    reachable base, stopped at the first repeat (kept, to show a cycle), a missing or malformed parent."""
    loaded = {(s, _stem(n)) for s, n, e in profile_files(input, tree) if _stem(n) is not None}
    parent = {(s, n): x for s, n, x in _metadata(input, tree)}
    out = []
    for start in sorted(loaded, key=lambda p: (p[0], p[1] or "")):
        chain = [start]
        while True:
            base = parent.get(chain[-1], "absent")
            if base == "absent" or not reference(base):
                break
            scope, _, name = base.rpartition(":")
            step = (scope or chain[-1][0], name)
            chain.append(step)
            if step in chain[:-1] or step not in loaded:
                break
        out.append(chain)
    return out


def same_id_further(chain: list[tuple[str, str]]) -> bool:
    """Whether a chain meets an id of one of its layers again in the other scope, further down
    than the next layer (project c, project d, global c)."""
    return any(a[1] == b[1] and a[0] != b[0] for n, a in enumerate(chain) for b in chain[n + 2:])


def _chain(test: Callable[[list[tuple[str, str]], dict], bool]) -> Hit:
    def hit(input: dict, tree: "dict | None") -> bool:
        sizes = {(s, _stem(n)): _body_size(entry_bytes(e) or b"") for s, n, e in profile_files(input, tree)
                 if _stem(n) is not None}
        return any(test(chain, sizes) for chain in chains(input, tree))

    return hit


def over_in_bytes_only(input: dict, tree: "dict | None") -> bool:
    """A chain whose bodies total more than :data:`CHAIN_BYTES` UTF-8 bytes but at most that many
    characters (PROF-INHERIT-SIZE counts bytes): bodies beyond ASCII near the limit."""
    texts = {(s, _stem(n)): _text(entry_bytes(e) or b"").removeprefix("\ufeff") for s, n, e in profile_files(input, tree)
             if _stem(n) is not None}
    return any(len(set(c)) == len(c) and all(p in texts for p in c)
               and sum(len(texts[p].encode("utf-8")) for p in c) > CHAIN_BYTES >= sum(len(texts[p]) for p in c)
               for c in chains(input, tree))


def _extends(test: Callable[[str, Any], bool]) -> Hit:
    """The class of trees where some profile's ``extends`` (``scope``, value) passes ``test``."""
    return lambda input, tree: any(x != "absent" and test(s, x) for s, n, x in _metadata(input, tree))


def _trusted(value: bool) -> Hit:
    return lambda input, tree: bool(input.get("trusted")) is value


def _has(scope: str, rest: str) -> Hit:
    return lambda input, tree: any(s == scope and r == rest for s, r, e in scope_entries(input, tree))


def _project_profiles(input: dict, tree: "dict | None") -> bool:
    return any(s == "project" for s, n, e in profile_files(input, tree))


def _case_pair(input: dict, tree: "dict | None") -> bool:
    stems = [(s, _stem(n)) for s, n, e in profile_files(input, tree) if _stem(n) is not None]
    return any(a[0] == b[0] and a[1] != b[1] and a[1].casefold() == b[1].casefold() for a in stems for b in stems)


def _same_id_both(input: dict, tree: "dict | None") -> bool:
    stems = {(s, _stem(n)) for s, n, e in profile_files(input, tree) if _stem(n)}
    return any(("global", n) in stems and ("project", n) in stems for s, n in stems)


def _link(test: Callable[[str, str], bool]) -> Hit:
    """The class of trees with a link in profiles/ whose target (``name``, target) passes ``test``."""
    return _profile(lambda s, n, e: "symlink" in e and test(n, e["symlink"]))


def _profiles_dir(test: Callable[[dict], bool]) -> Hit:
    return lambda input, tree: any(r.rstrip("/") == "profiles" and test(e) for s, r, e in scope_entries(input, tree))


def _no_profiles_dir(input: dict, tree: "dict | None") -> bool:
    return any(not any(s == scope and r.startswith("profiles") for s, r, e in scope_entries(input, tree))
               for scope in ("global", "project"))


def _dangling(name: str, target: str) -> bool:
    return target.startswith("gone") or target.startswith("missing")


LOAD = [
    Cell("extension", ".md", ("PROF-FILE-EXT",), _profile(lambda s, n, e: n.endswith(".md"))),
    Cell("extension", ".md in other case", ("PROF-FILE-EXT",), _profile(lambda s, n, e: n.lower().endswith(".md")
                                                                         and not n.endswith(".md"))),
    Cell("extension", "not .md", ("PROF-FILE-EXT",), _profile(lambda s, n, e: _stem(n) is None)),
    Cell("id", "valid", ("PROF-ID",), _profile(lambda s, n, e: good_id(_stem(n)))),
    Cell("id", f"{ID_LIMIT} characters", ("PROF-ID",), _profile(lambda s, n, e: good_id(_stem(n))
                                                                 and len(_stem(n) or "") == ID_LIMIT)),
    Cell("id", f"{ID_LIMIT + 1} characters", ("PROF-ID",),
         _profile(lambda s, n, e: len(_stem(n) or "") == ID_LIMIT + 1 and bool(ID.fullmatch(_stem(n) or "")))),
    Cell("id", "a bad first character", ("PROF-ID",), _profile(lambda s, n, e: bool(re.match(r"[._-]", _stem(n) or "")))),
    Cell("id", "holding ..", ("PROF-ID",), _profile(lambda s, n, e: ".." in (_stem(n) or "")[1:])),
    Cell("id", "a character outside the id set", ("PROF-ID",),
         _profile(lambda s, n, e: bool(re.search(r"[^A-Za-z0-9._-]", _stem(n) or "")))),
    Cell("id", "empty (.md)", ("PROF-FILE-EMPTY-STEM",), _profile(lambda s, n, e: _stem(n) == "")),
    Cell("id", "a leading underscore", ("PROF-ID",), _profile(lambda s, n, e: (_stem(n) or "").startswith("_"))),
    Cell("id", "a letter or digit beyond ASCII", ("PROF-ID",), _profile(lambda s, n, e: beyond_ascii_word(_stem(n)))),
    Cell("id", "a valid id but for a line break at its end", ("PROF-ID",),
         _profile(lambda s, n, e: _broken_at_end(_stem(n)))),
    Cell("id", "two differing only in case", ("PROF-LOAD-CASE",), _case_pair),
    Cell("id", "the same id in both scopes", ("PROF-REF",), _same_id_both),
    Cell("entry", "a link inside profiles/", ("PROF-LOAD-ROOT-SCOPE",),
         _link(lambda n, t: "/" not in t and not _dangling(n, t))),
    Cell("entry", "a link next to profiles/", ("PROF-LOAD-ROOT-SCOPE",), _link(lambda n, t: t.startswith("../") and t.count("../") == 1)),
    Cell("entry", "a link leaving the tree", ("PROF-LOAD-ROOT",), _link(lambda n, t: t.count("../") > 1 or t.startswith("/"))),
    Cell("entry", "a dangling link", ("PROF-LOAD-LINKS",), _link(_dangling)),
    Cell("entry", "a directory named like a profile", ("PROF-LOAD-LINKS",),
         _profile(lambda s, n, e: _stem(n) is not None and bool(e.get("dir")))),
    Cell("profiles/", "absent", ("PROF-LOAD-DIR",), _no_profiles_dir),
    Cell("profiles/", "a file", ("PROF-LOAD-DIR",), _profiles_dir(lambda e: entry_bytes(e) is not None)),
    Cell("profiles/", "a link", ("PROF-LOAD-ROOT-SCOPE", "PROF-LOAD-DIR"), _profiles_dir(lambda e: "symlink" in e)),
    Cell("size", f"{SIZE_LIMIT - 1} bytes", ("PROF-LOAD-SIZE",), _body(lambda d: _body_size(d) == SIZE_LIMIT - 1)),
    Cell("size", f"{SIZE_LIMIT} bytes", ("PROF-LOAD-SIZE",), _body(lambda d: _body_size(d) == SIZE_LIMIT)),
    Cell("size", f"{SIZE_LIMIT + 1} bytes", ("PROF-LOAD-SIZE", "PROF-LOAD-SIZE-LEVEL"),
         _body(lambda d: _body_size(d) == SIZE_LIMIT + 1)),
    Cell("size", "the limit only with the BOM", ("PROF-LOAD-SIZE",),
         _body(lambda d: d.startswith(BOM) and len(d) > SIZE_LIMIT >= _body_size(d))),
    Cell("body", "empty", ("PROF-LOAD-VERBATIM",), _body(lambda d: d == b"")),
    Cell("body", "white space only", ("PROF-LOAD-VERBATIM",), _body(lambda d: d != b"" and not d.strip())),
    Cell("body", "white space around", ("PROF-LOAD-VERBATIM",), _body(lambda d: d.strip() != b"" and d != d.strip())),
    Cell("body", "CRLF line endings", ("PROF-LOAD-VERBATIM",), _body(lambda d: b"\r\n" in d)),
    Cell("body", "one leading BOM", ("PROF-LOAD-BOM",), _body(lambda d: d.startswith(BOM) and not d.startswith(BOM * 2))),
    Cell("body", "two leading BOMs", ("PROF-LOAD-BOM",), _body(lambda d: d.startswith(BOM * 2))),
    Cell("body", "a BOM not at the start", ("PROF-LOAD-BOM",), _body(lambda d: BOM in d[1:])),
    Cell("body", "not UTF-8", ("PROF-LOAD-UTF8",), _body(lambda d: not _utf8(d))),
    Cell("body", "the begin marker", ("PROF-MARKER-FORGERY",), _body(lambda d: BEGIN.encode() in d)),
    Cell("body", "the end marker", ("PROF-MARKER-FORGERY",), _body(lambda d: END.encode() in d)),
    Cell("body", "a near miss of a marker", ("PROF-MARKER-FORGERY",),
         _body(lambda d: b"system-instructions" in d and BEGIN.encode() not in d and END.encode() not in d)),
    Cell("trust", "trusted project with profiles", ("PROF-TRUST",), lambda i, t: _trusted(True)(i, t) and _project_profiles(i, t)),
    Cell("trust", "untrusted project with profiles", ("PROF-TRUST",),
         lambda i, t: _trusted(False)(i, t) and _project_profiles(i, t)),
    Cell("trust", "trusted project without config.json", ("PROF-LOAD-NO-CONFIG",),
         lambda i, t: _trusted(True)(i, t) and _project_profiles(i, t) and not _has("project", "config.json")(i, t)),
    Cell("report", "one scope asked for", ("PROF-PROJECT-DIR",), lambda i, t: i.get("scope") in ("global", "project")),
    Cell("report", "bodies", ("PROF-LOAD-VERBATIM",), lambda i, t: i.get("bodies") is True),
    Cell("chain", "one layer", ("PROF-INHERIT-ORDER",), _chain(lambda c, sizes: len(c) == 1)),
    Cell("chain", "two or more layers", ("PROF-INHERIT-ORDER",), _chain(lambda c, sizes: len(c) >= 2 and len(set(c)) == len(c)
                                                                        and c[-1] in sizes)),
    Cell("chain", f"{LAYERS} layers", ("PROF-INHERIT-DEPTH",), _chain(lambda c, sizes: len(c) == LAYERS == len(set(c))
                                                                       and c[-1] in sizes)),
    Cell("chain", f"{LAYERS + 1} layers", ("PROF-INHERIT-DEPTH",), _chain(lambda c, sizes: len(c) == LAYERS + 1 == len(set(c))
                                                                           and c[-1] in sizes)),
    Cell("chain", "a profile extending itself", ("PROF-INHERIT-CYCLE",), _chain(lambda c, sizes: len(c) == 2 and c[0] == c[1])),
    Cell("chain", "a longer cycle", ("PROF-INHERIT-CYCLE",), _chain(lambda c, sizes: len(c) > 2 and c[-1] in c[:-1])),
    Cell("chain", "a missing parent", ("PROF-INHERIT-MISSING",), _chain(lambda c, sizes: len(c) >= 2 and c[-1] not in sizes)),
    Cell("chain", "a project profile extending the global profile of its id", ("PROF-REF", "PROF-INHERIT-CYCLE"),
         _chain(lambda c, sizes: len(set(c)) == len(c) and c[-1] in sizes and c[0][0] == "project" and c[1:2] == [("global", c[0][1])])),
    Cell("chain", "an id met again in the other scope further down, no cycle", ("PROF-REF", "PROF-INHERIT-CYCLE"),
         _chain(lambda c, sizes: len(set(c)) == len(c) and c[-1] in sizes and same_id_further(c))),
    Cell("chain", "a cycle reached from the other scope", ("PROF-INHERIT-CYCLE",),
         _chain(lambda c, sizes: c[-1] in c[:-1] and len({s for s, n in c}) == 2)),
    Cell("chain", f"bodies totalling {CHAIN_BYTES} bytes", ("PROF-INHERIT-SIZE",),
         _chain(lambda c, sizes: len(set(c)) == len(c) and all(p in sizes for p in c) and sum(sizes[p] for p in c) == CHAIN_BYTES)),
    Cell("chain", f"bodies totalling {CHAIN_BYTES + 1} bytes", ("PROF-INHERIT-SIZE",),
         _chain(lambda c, sizes: len(set(c)) == len(c) and all(p in sizes for p in c) and sum(sizes[p] for p in c) == CHAIN_BYTES + 1)),
    Cell("chain", f"bodies over {CHAIN_BYTES} bytes but not characters", ("PROF-INHERIT-SIZE",), over_in_bytes_only),
    Cell("extends", "a bare id", ("PROF-REF",), _extends(lambda s, x: good_id(x))),
    Cell("extends", "global:ID", ("PROF-REF", "PROF-INHERIT-SCOPE"), _extends(lambda s, x: isinstance(x, str) and x.startswith("global:"))),
    Cell("extends", "project:ID from the project", ("PROF-REF",),
         _extends(lambda s, x: s == "project" and isinstance(x, str) and x.startswith("project:"))),
    Cell("extends", "project:ID from a global profile", ("PROF-INHERIT-SCOPE",),
         _extends(lambda s, x: s == "global" and isinstance(x, str) and x.startswith("project:"))),
    Cell("extends", "not a string (null, number, array)", ("PROF-INHERIT-MALFORMED",), _extends(lambda s, x: not isinstance(x, str))),
    Cell("extends", "an empty string", ("PROF-INHERIT-MALFORMED",), _extends(lambda s, x: x == "")),
    Cell("extends", "a path", ("PROF-INHERIT-MALFORMED",), _extends(lambda s, x: isinstance(x, str) and "/" in x)),
    Cell("extends", "an unknown scope prefix", ("PROF-INHERIT-MALFORMED",),
         _extends(lambda s, x: isinstance(x, str) and ":" in x and x.split(":")[0] not in ("global", "project"))),
    *character_cells(("PROF-LOAD-VERBATIM",), lambda input, tree: [
        _text(entry_bytes(e) or b"") for s, n, e in profile_files(input, tree) if _stem(n) is not None]),
]
"""The classes of ``profiles.load``: file names (the ``.md`` extension in any case, ids at
and over the limit, each way of breaking the id rule, a leading underscore and letters or digits
beyond ASCII, two ids differing only in case, one id in both scopes), links in and out of
profiles/ and the profiles/ entry itself, body sizes around the limit (with a BOM), bodies kept
verbatim, BOMs, bytes that are not UTF-8, markers, trust, and chains: around the layer and byte
limits, cycles (one reached from the other scope), a missing parent, a project profile extending
the global one of its id and an id met again in the other scope further down, every form of
``extends``."""


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# --- profiles.config -------------------------------------------------------------------------------------------------

def _config(input: dict) -> Any:
    """The config the input holds (``config``, or ``text`` read as JSON), ``None`` when not JSON."""
    if "config" in input and input.get("text") is None:
        return input.get("config")
    try:
        return json.loads(input.get("text") or "", parse_constant=lambda c: float(c))
    except ValueError:
        return None


def _v1(test: Callable[[dict], bool]) -> Hit:
    """The class of configs that are objects of version 1 and pass ``test``."""
    def hit(input: dict, tree: "dict | None") -> bool:
        config = _config(input)
        return isinstance(config, dict) and _is_one(config.get("version")) and test(config)

    return hit


def _is_one(value: Any) -> bool:
    return type(value) in (int, float) and value == 1


def _key(key: str, test: Callable[[Any], bool]) -> Hit:
    return _v1(lambda c: key in c and test(c[key]))


def _bindings(test: Callable[[list], bool]) -> Hit:
    return _key("bindings", lambda b: isinstance(b, list) and test(b))


def _binding(test: Callable[[Any], bool]) -> Hit:
    return _bindings(lambda b: len(b) <= 200 and any(test(x) for x in b))


def _rule(test: Callable[[Any], bool]) -> Hit:
    return _binding(lambda b: isinstance(b, dict) and isinstance(b.get("match"), list) and any(test(r) for r in b["match"]))


def _text_hit(test: Callable[[str], bool]) -> Hit:
    return lambda input, tree: isinstance(input.get("text"), str) and test(input["text"])


def _number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def good_rule(rule: Any) -> bool:
    """Whether a rule is kept (PROF-CONFIG-RULE, -RULE-KEYS): an object of non-empty strings
    under ``provider`` and ``model`` only."""
    return (isinstance(rule, dict) and set(rule) <= {"provider", "model"}
            and all(isinstance(v, str) and v != "" for v in rule.values()))


CONFIG_KEYS = ("version", "selection", "defaultProfile", "profiles", "bindings", "inheritGlobalBindings", "subagents")


def _strings(input: dict, tree: "dict | None") -> list[str]:
    from conformance.strategies.partitions.cells import _texts

    return _texts(_config(input)) if isinstance(_config(input), (dict, list)) else []


CONFIG = [
    Cell("given as", "a JSON value", ("PROF-CONFIG-JSON",), lambda i, t: "config" in i and i.get("text") is None),
    Cell("given as", "a text", ("PROF-CONFIG-JSON",), lambda i, t: isinstance(i.get("text"), str)),
    Cell("scope", "global", ("PROF-CONFIG-INHERIT",), lambda i, t: i.get("scope") == "global"),
    Cell("scope", "project", ("PROF-CONFIG-INHERIT",), lambda i, t: i.get("scope") == "project"),
    Cell("JSON", "an empty text", ("PROF-CONFIG-JSON",), _text_hit(lambda s: s == "")),
    Cell("JSON", "a trailing comma", ("PROF-CONFIG-JSON",), _text_hit(lambda s: bool(re.search(r",\s*[}\]]", s)))),
    Cell("JSON", "a comment", ("PROF-CONFIG-JSON",), _text_hit(lambda s: "//" in s or "/*" in s)),
    Cell("JSON", "NaN or Infinity", ("PROF-CONFIG-JSON",), _text_hit(lambda s: bool(re.search(r"\b(NaN|Infinity)\b", s)))),
    Cell("JSON", "a leading BOM", ("PROF-CONFIG-JSON",), _text_hit(lambda s: s.startswith("\ufeff"))),
    Cell("JSON", "two leading BOMs", ("PROF-CONFIG-JSON",), _text_hit(lambda s: s.startswith("\ufeff\ufeff"))),
    Cell("JSON", "a BOM after leading white space", ("PROF-CONFIG-JSON",), _text_hit(lambda s: bool(re.match(r"[ \t\r\n]+\ufeff", s)))),
    Cell("JSON", "a BOM inside a string after the leading one", ("PROF-CONFIG-JSON",),
         _text_hit(lambda s: s.startswith("\ufeff") and bool(re.search(r'"[^"]*\ufeff', s[1:])))),
    Cell("JSON", "a root that is not an object", ("PROF-CONFIG-JSON",),
         lambda i, t: (_config(i) is not None or i.get("text") == "null" or ("config" in i and i.get("text") is None))
         and not isinstance(_config(i), dict)),
    Cell("version", "the number 1", ("PROF-CONFIG-VERSION",), _v1(lambda c: True)),
    Cell("version", "absent", ("PROF-CONFIG-VERSION",), lambda i, t: isinstance(_config(i), dict) and "version" not in _config(i)),
    Cell("version", "the string \"1\"", ("PROF-CONFIG-VERSION",), lambda i, t: isinstance(_config(i), dict) and _config(i).get("version") == "1"),
    Cell("version", "true", ("PROF-CONFIG-VERSION",), lambda i, t: isinstance(_config(i), dict) and _config(i).get("version") is True),
    Cell("version", "another number", ("PROF-CONFIG-VERSION",),
         lambda i, t: isinstance(_config(i), dict) and _number(_config(i).get("version")) and _config(i).get("version") != 1),
    Cell("unknown key", "at the top", ("PROF-CONFIG-UNKNOWN",), _v1(lambda c: any(k not in CONFIG_KEYS for k in c))),
    Cell("unknown key", "in selection", ("PROF-CONFIG-UNKNOWN",), _key("selection", lambda s: isinstance(s, dict) and any(k not in ("mode", "profile") for k in s))),
    Cell("unknown key", "in a profile's metadata", ("PROF-CONFIG-UNKNOWN",),
         _key("profiles", lambda p: isinstance(p, dict) and any(isinstance(m, dict) and any(k not in ("extends", "description") for k in m) for m in p.values()))),
    Cell("unknown key", "in a binding", ("PROF-CONFIG-UNKNOWN",),
         _binding(lambda b: isinstance(b, dict) and any(k not in ("id", "profile", "priority", "match") for k in b))),
    Cell("selection", "auto", ("PROF-CONFIG-SELECTION",), _key("selection", lambda s: s == {"mode": "auto"})),
    Cell("selection", "off", ("PROF-CONFIG-SELECTION",), _key("selection", lambda s: s == {"mode": "off"})),
    Cell("selection", "manual with a reference", ("PROF-CONFIG-SELECTION",),
         _key("selection", lambda s: isinstance(s, dict) and s.get("mode") == "manual" and reference(s.get("profile")))),
    Cell("selection", "manual without a profile", ("PROF-CONFIG-SELECTION",),
         _key("selection", lambda s: isinstance(s, dict) and s.get("mode") == "manual" and "profile" not in s)),
    Cell("selection", "another mode", ("PROF-CONFIG-SELECTION",),
         _key("selection", lambda s: isinstance(s, dict) and s.get("mode") not in ("auto", "off", "manual"))),
    Cell("selection", "not an object", ("PROF-CONFIG-SELECTION",), _key("selection", lambda s: not isinstance(s, dict))),
    Cell("defaultProfile", "a bare id", ("PROF-CONFIG-DEFAULT",), _key("defaultProfile", good_id)),
    Cell("defaultProfile", "a scoped reference", ("PROF-CONFIG-DEFAULT",),
         _key("defaultProfile", lambda d: reference(d) and ":" in d)),
    Cell("defaultProfile", "not a reference", ("PROF-CONFIG-DEFAULT",), _key("defaultProfile", lambda d: not reference(d))),
    Cell("profiles", "not an object", ("PROF-CONFIG-PROFILES",), _key("profiles", lambda p: not isinstance(p, dict))),
    Cell("profiles", "a key that is not an id", ("PROF-CONFIG-PROFILES",), _key("profiles", lambda p: isinstance(p, dict) and any(not good_id(k) for k in p))),
    Cell("profiles", "a key with a leading underscore", ("PROF-ID", "PROF-CONFIG-PROFILES"),
         _key("profiles", lambda p: isinstance(p, dict) and any(wordy(k) and k.startswith("_") for k in p))),
    Cell("profiles", "a key with a letter or digit beyond ASCII", ("PROF-ID", "PROF-CONFIG-PROFILES"),
         _key("profiles", lambda p: isinstance(p, dict) and any(wordy(k) and beyond_ascii_word(k) for k in p))),
    Cell("profiles", "a valid key but for a line break at an end", ("PROF-ID", "PROF-CONFIG-PROFILES"),
         _key("profiles", lambda p: isinstance(p, dict) and any(_broken_at_end(k) for k in p))),
    Cell("profiles", "metadata that is not an object", ("PROF-CONFIG-PROFILES",),
         _key("profiles", lambda p: isinstance(p, dict) and any(not isinstance(m, dict) for m in p.values()))),
    Cell("profiles", "a description", ("PROF-CONFIG-PROFILES",),
         _key("profiles", lambda p: isinstance(p, dict) and any(isinstance(m, dict) and isinstance(m.get("description"), str) for m in p.values()))),
    Cell("profiles", "a description that is not a string", ("PROF-CONFIG-PROFILES",),
         _key("profiles", lambda p: isinstance(p, dict) and any(isinstance(m, dict) and "description" in m and not isinstance(m["description"], str) for m in p.values()))),
    Cell("profiles", "an extends that is not a reference", ("PROF-CONFIG-EXTENDS",),
         _key("profiles", lambda p: isinstance(p, dict) and any(isinstance(m, dict) and "extends" in m and not reference(m["extends"]) for m in p.values()))),
    Cell("bindings", "not an array", ("PROF-CONFIG-BINDING",), _key("bindings", lambda b: not isinstance(b, list))),
    Cell("bindings", "empty", ("PROF-CONFIG-BINDING",), _bindings(lambda b: b == [])),
    Cell("bindings", "199", ("PROF-CONFIG-BINDINGS-LIMIT",), _bindings(lambda b: len(b) == 199)),
    Cell("bindings", "200", ("PROF-CONFIG-BINDINGS-LIMIT",), _bindings(lambda b: len(b) == 200)),
    Cell("bindings", "201", ("PROF-CONFIG-BINDINGS-LIMIT",), _bindings(lambda b: len(b) == 201)),
    Cell("binding", "valid", ("PROF-CONFIG-BINDING",),
         _binding(lambda b: isinstance(b, dict) and good_id(b.get("id")) and reference(b.get("profile")))),
    Cell("binding", "not an object", ("PROF-CONFIG-BINDING",), _binding(lambda b: not isinstance(b, dict))),
    Cell("binding", "a bad id", ("PROF-CONFIG-BINDING",), _binding(lambda b: isinstance(b, dict) and not good_id(b.get("id")))),
    Cell("binding", "an id with a leading underscore", ("PROF-ID", "PROF-CONFIG-BINDING"),
         _binding(lambda b: isinstance(b, dict) and wordy(b.get("id")) and b["id"].startswith("_"))),
    Cell("binding", "an id with a letter or digit beyond ASCII", ("PROF-ID", "PROF-CONFIG-BINDING"),
         _binding(lambda b: isinstance(b, dict) and wordy(b.get("id")) and beyond_ascii_word(b["id"]))),
    Cell("binding", "a valid id but for a line break at an end", ("PROF-ID", "PROF-CONFIG-BINDING"),
         _binding(lambda b: isinstance(b, dict) and _broken_at_end(b.get("id")))),
    Cell("binding", "a repeated id", ("PROF-CONFIG-BINDING-DUPLICATE",),
         _bindings(lambda b: len(b) <= 200 and len(ids := [x["id"] for x in b if isinstance(x, dict) and good_id(x.get("id"))]) > len(set(ids)))),
    Cell("binding", "a profile that is not a reference", ("PROF-CONFIG-BINDING",),
         _binding(lambda b: isinstance(b, dict) and "profile" in b and not reference(b["profile"]))),
    Cell("binding", "a profile with white space around", ("PROF-CONFIG-BINDING-PROFILE-EXACT",),
         _binding(lambda b: isinstance(b, dict) and isinstance(b.get("profile"), str) and b["profile"] != b["profile"].strip() and reference(b["profile"].strip()))),
    Cell("binding", "no profile", ("PROF-CONFIG-BINDING",), _binding(lambda b: isinstance(b, dict) and "profile" not in b)),
    Cell("match", "not an array", ("PROF-CONFIG-BINDING",), _binding(lambda b: isinstance(b, dict) and "match" in b and not isinstance(b["match"], list))),
    Cell("match", "an empty array", ("PROF-CONFIG-BINDING",), _binding(lambda b: isinstance(b, dict) and b.get("match") == [])),
    Cell("match", "no valid rule", ("PROF-CONFIG-BINDING",),
         _binding(lambda b: isinstance(b, dict) and isinstance(b.get("match"), list) and b["match"] != [] and not any(good_rule(r) for r in b["match"]))),
    Cell("rule", "provider and model", ("PROF-CONFIG-RULE",), _rule(lambda r: good_rule(r) and set(r) == {"provider", "model"})),
    Cell("rule", "one field", ("PROF-CONFIG-RULE",), _rule(lambda r: good_rule(r) and len(r) == 1)),
    Cell("rule", "no field", ("PROF-CONFIG-RULE",), _rule(lambda r: r == {})),
    Cell("rule", "an empty string", ("PROF-CONFIG-RULE",), _rule(lambda r: isinstance(r, dict) and "" in (r.get("provider"), r.get("model")))),
    Cell("rule", "a field that is not a string", ("PROF-CONFIG-RULE",),
         _rule(lambda r: isinstance(r, dict) and any(k in r and not isinstance(r[k], str) for k in ("provider", "model")))),
    Cell("rule", "another key", ("PROF-CONFIG-RULE-KEYS",), _rule(lambda r: isinstance(r, dict) and any(k not in ("provider", "model") for k in r))),
    Cell("rule", "not an object", ("PROF-CONFIG-RULE",), _rule(lambda r: not isinstance(r, dict))),
    Cell("priority", "absent", ("PROF-CONFIG-PRIORITY",), _binding(lambda b: isinstance(b, dict) and "priority" not in b)),
    Cell("priority", "negative", ("PROF-CONFIG-PRIORITY",), _binding(lambda b: isinstance(b, dict) and _number(b.get("priority")) and b["priority"] < 0)),
    Cell("priority", "fractional", ("PROF-CONFIG-PRIORITY",),
         _binding(lambda b: isinstance(b, dict) and _number(b.get("priority")) and b["priority"] != int(b["priority"]))),
    Cell("priority", "a string", ("PROF-CONFIG-PRIORITY",), _binding(lambda b: isinstance(b, dict) and isinstance(b.get("priority"), str))),
    Cell("priority", "a boolean", ("PROF-CONFIG-PRIORITY",), _binding(lambda b: isinstance(b, dict) and isinstance(b.get("priority"), bool))),
    Cell("priority", "not finite (1e400)", ("PROF-CONFIG-PRIORITY",),
         _binding(lambda b: isinstance(b, dict) and isinstance(b.get("priority"), float) and not math.isfinite(b["priority"]))),
    Cell("inheritGlobalBindings", "a boolean in the project", ("PROF-CONFIG-INHERIT",),
         lambda i, t: i.get("scope") == "project" and _key("inheritGlobalBindings", lambda v: isinstance(v, bool))(i, t)),
    Cell("inheritGlobalBindings", "in the global config", ("PROF-CONFIG-INHERIT",),
         lambda i, t: i.get("scope") == "global" and _key("inheritGlobalBindings", lambda v: isinstance(v, bool))(i, t)),
    Cell("inheritGlobalBindings", "not a boolean", ("PROF-CONFIG-INHERIT",), _key("inheritGlobalBindings", lambda v: not isinstance(v, bool))),
    *[Cell("subagents", policy, ("PROF-CONFIG-SUBAGENTS",), _key("subagents", lambda v, p=policy: v == p))
      for policy in ("bindings", "inherit", "off")],
    Cell("subagents", "another value", ("PROF-CONFIG-SUBAGENTS",), _key("subagents", lambda v: v not in ("bindings", "inherit", "off"))),
    Cell("subagents", "a policy in another case", ("PROF-CONFIG-SUBAGENTS",),
         _key("subagents", lambda v: isinstance(v, str) and v.lower() in ("bindings", "inherit", "off") and v.lower() != v)),
    Cell("subagents", "a policy with white space around it", ("PROF-CONFIG-SUBAGENTS",),
         _key("subagents", lambda v: isinstance(v, str) and v.strip() in ("bindings", "inherit", "off") and v.strip() != v)),
    Cell("keys", "every key bad at once", ("PROF-CONFIG-PER-KEY",),
         _v1(lambda c: sum(1 for k in ("selection", "defaultProfile", "profiles", "bindings", "subagents") if k in c) >= 3
             and not reference(c.get("defaultProfile")) and c.get("subagents") not in ("bindings", "inherit", "off", None))),
    *character_cells(("PROF-CONFIG-PER-KEY",), _strings),
]
"""The classes of ``profiles.config``: the forms of the text (empty, trailing commas, comments,
``NaN``, a BOM, another root), every ``version`` PROF-CONFIG-VERSION names, unknown keys at each
level, each key valid and in each bad form its clause names (profile keys and binding ids with a
leading underscore or letters or digits beyond ASCII among them), the number of bindings around
the limit, every rule and priority form, and several bad keys at once."""


PARTITIONS: dict[str, list[Cell]] = {
    "profiles.load": LOAD,
    "profiles.config": CONFIG,
}
