"""The input classes of the ``models.json`` operations (PI-DECISION-MODELS): ``pi.models-value``,
the value forms of PI-MODELS-VALUE-*, and ``pi.models-load``, the file, its schema, providers,
models, defaults and overrides."""

from __future__ import annotations

import re
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, character_cells

NAME = r"[A-Za-z_][A-Za-z0-9_]*"


def _value(input: dict) -> str:
    value = input.get("value")
    return value if isinstance(value, str) else ""


def _env(input: dict) -> dict:
    env = input.get("env")
    return env if isinstance(env, dict) else {}


def _interpolated(test: Callable[[str], bool]) -> Hit:
    """The class of values that are not commands and pass ``test``."""
    return lambda input, tree: not _value(input).startswith("!") and test(_value(input))


def _command(pattern: str) -> Hit:
    """The class of ``!command`` values whose command matches ``pattern``."""
    found = re.compile(pattern)
    return lambda input, tree: _value(input).startswith("!") and bool(found.search(_value(input)[1:]))


def _tokens(value: str) -> list[str]:
    """The pieces of a value that is not a command, as PI-MODELS-VALUE-FORMS and -ESCAPES read
    them left to right: ``$$``, ``$!``, ``$NAME``, ``${NAME}``, a lone ``$`` or a character."""
    return re.findall(r"\$\$|\$!|\$\{" + NAME + r"\}|\$" + NAME + r"|\$|[^$]", value)


def _names(value: str) -> list[str]:
    return [t.strip("${}") for t in _tokens(value) if re.fullmatch(r"\$\{?" + NAME + r"\}?", t)]


def _variables(test: Callable[[list[str], dict], bool]) -> Hit:
    """The class of values that are not commands, whose variable names and ``env`` pass ``test``."""
    return lambda input, tree: (not _value(input).startswith("!")
                                and test(_names(_value(input)), _env(input)))


def _set(name: str, env: dict) -> bool:
    return isinstance(env.get(name), str) and env[name] != ""


MODELS_VALUE = [
    Cell("form", "a !command", ("PI-MODELS-VALUE-FORMS", "PI-MODELS-VALUE-COMMAND"),
         lambda input, tree: _value(input).startswith("!")),
    Cell("form", "$NAME", ("PI-MODELS-VALUE-FORMS",), _interpolated(lambda v: any(re.fullmatch(r"\$" + NAME, t) for t in _tokens(v)))),
    Cell("form", "${NAME}", ("PI-MODELS-VALUE-FORMS",), _interpolated(lambda v: any(t.startswith("${") for t in _tokens(v)))),
    Cell("form", "literal text only", ("PI-MODELS-VALUE-FORMS",), _interpolated(lambda v: "$" not in v and v != "")),
    Cell("form", "a bare variable name, literal", ("PI-MODELS-VALUE-FORMS",), _interpolated(lambda v: bool(re.fullmatch(NAME, v)))),
    Cell("form", "text around a variable", ("PI-MODELS-VALUE-FORMS",),
         _interpolated(lambda v: bool(_names(v)) and len(_tokens(v)) > len(_names(v)))),
    Cell("form", "empty", ("PI-MODELS-VALUE-FORMS",), lambda input, tree: _value(input) == ""),
    Cell("escape", "$$", ("PI-MODELS-VALUE-ESCAPES",), _interpolated(lambda v: "$$" in _tokens(v))),
    Cell("escape", "$!", ("PI-MODELS-VALUE-ESCAPES",), _interpolated(lambda v: "$!" in _tokens(v))),
    Cell("escape", "starting with $!, not a command", ("PI-MODELS-VALUE-ESCAPES",), _interpolated(lambda v: v.startswith("$!"))),
    Cell("escape", "$ not followed by a name", ("PI-MODELS-VALUE-ESCAPES",),
         _interpolated(lambda v: any(t == "$" for t in _tokens(v)) and not re.search(r"\$\{", v.replace("$$", "")))),
    Cell("escape", "an unclosed ${", ("PI-MODELS-VALUE-ESCAPES",), _interpolated(lambda v: bool(re.search(r"\$\{[^}]*$", v)))),
    Cell("escape", "${...} that is not a name", ("PI-MODELS-VALUE-ESCAPES",),
         _interpolated(lambda v: bool(re.search(r"\$\{(?!" + NAME + r"\})[^}]*\}", v.replace("$$", ""))))),
    Cell("name", "a letter or digit beyond ASCII right after a name", ("PI-MODELS-VALUE-FORMS",),
         _interpolated(lambda v: bool(re.search(r"\$" + NAME + r"(?=[^\W_])(?![A-Za-z0-9])", v.replace("$$", ""))))),
    Cell("name", "$ then a letter beyond ASCII", ("PI-MODELS-VALUE-FORMS", "PI-MODELS-VALUE-ESCAPES"),
         _interpolated(lambda v: bool(re.search(r"\$(?=[^\W\d_])(?![A-Za-z])", v.replace("$$", ""))))),
    Cell("name", "${...} with a letter beyond ASCII", ("PI-MODELS-VALUE-FORMS", "PI-MODELS-VALUE-ESCAPES"),
         _interpolated(lambda v: bool(re.search(r"\$\{[^}]*[^\x00-\x7f][^}]*\}", v.replace("$$", ""))))),
    Cell("variable", "set", ("PI-MODELS-VALUE-FORMS",), _variables(lambda names, env: any(_set(n, env) for n in names))),
    Cell("variable", "set to the empty string", ("PI-MODELS-VALUE-UNSET",),
         _variables(lambda names, env: any(env.get(n) == "" for n in names))),
    Cell("variable", "unset", ("PI-MODELS-VALUE-UNSET",), _variables(lambda names, env: any(n not in env for n in names))),
    Cell("variable", "one unset or empty among set ones", ("PI-MODELS-VALUE-UNSET",),
         _variables(lambda names, env: any(_set(n, env) for n in names) and any(not _set(n, env) for n in names))),
    Cell("variable", "a value holding $", ("PI-MODELS-VALUE-FORMS",),
         _variables(lambda names, env: any(_set(n, env) and "$" in env[n] for n in names))),
    Cell("command", "output", ("PI-MODELS-VALUE-COMMAND",), _command(r"^\s*(echo \S|printf '[^\s'])")),
    Cell("command", "output with white space around", ("PI-MODELS-VALUE-COMMAND",), _command(r"printf '\s+\S[^']*(\s|\\[nt])'")),
    Cell("command", "a non-zero exit", ("PI-MODELS-VALUE-COMMAND",), _command(r"\bfalse\b|\bexit [1-9]")),
    Cell("command", "no output", ("PI-MODELS-VALUE-COMMAND",), _command(r"^\s*(true|printf '')\s*$")),
    Cell("command", "white space only", ("PI-MODELS-VALUE-COMMAND",), _command(r"printf '(\s|\\[nt])+'\s*$")),
    Cell("command", "$NAME in the command", ("PI-MODELS-VALUE-COMMAND",), _command(r"\$" + NAME)),
    Cell("command", "output that is not UTF-8", ("PI-MODELS-VALUE-COMMAND-BYTES",), _command(r"\\3[0-7][0-7]|\\x[89a-fA-F]")),
    Cell("command", "reading standard input", ("PI-MODELS-VALUE-COMMAND-STDIN",), _command(r"\b(cat|read)\b")),
    *character_cells(("PI-MODELS-VALUE-FORMS",), lambda input, tree: [_value(input), *[v for v in _env(input).values() if isinstance(v, str)]]),
]
"""The classes of ``pi.models-value``: every form of PI-MODELS-VALUE-FORMS (a command, ``$NAME``,
``${NAME}``, literal text, a bare name, text around a variable, empty), every escape and
near miss of PI-MODELS-VALUE-ESCAPES, variables set, empty, unset and one of several unset
(PI-MODELS-VALUE-UNSET), a variable's value holding ``$`` (read once), and commands with output,
white space around it, a non-zero exit, no output, white space only, a ``$NAME`` left to the
shell, bytes that are not UTF-8 and standard input read (PI-MODELS-VALUE-COMMAND-*)."""


PARTITIONS: dict[str, list[Cell]] = {
    "pi.models-value": MODELS_VALUE,
}


# --- pi.models-load --------------------------------------------------------------------------------------------------

def _doc(input: dict) -> Any:
    """The models.json document: ``modelsJson``, or ``modelsJsonText`` read as JSON with comments
    and trailing commas taken out (roughly, PI-MODELS-JSON-COMMENTS), ``None`` when neither parses."""
    import json

    if "modelsJson" in input:
        return input["modelsJson"]
    text = input.get("modelsJsonText")
    if not isinstance(text, str):
        return None
    text = re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*', lambda m: m.group(1) or "", text)
    text = re.sub(r",(\s*[}\]])", r"\1", text)
    try:
        return json.loads(text)
    except ValueError:
        return None


def _providers(input: dict) -> dict:
    doc = _doc(input)
    found = doc.get("providers") if isinstance(doc, dict) else None
    return found if isinstance(found, dict) else {}


def _provider(test: Callable[[str, dict, dict], bool]) -> Hit:
    """The class of inputs with a provider entry ``(id, entry, builtins)`` that passes ``test``."""
    def hit(input: dict, tree: "dict | None") -> bool:
        builtins = input.get("builtins") if isinstance(input.get("builtins"), dict) else {}
        return any(isinstance(e, dict) and test(p, e, builtins) for p, e in _providers(input).items())

    return hit


def _model_entries(e: dict) -> list:
    return e.get("models") if isinstance(e.get("models"), list) else []


def _model(test: Callable[[dict, dict, dict], bool]) -> Hit:
    """A model entry ``(model, provider entry, builtin provider or {})`` that passes ``test``."""
    return _provider(lambda p, e, b: any(isinstance(m, dict) and test(m, e, b.get(p) or {}) for m in _model_entries(e)))


def _override(test: Callable[[Any, dict], bool]) -> Hit:
    """A ``modelOverrides`` entry ``(value, builtin provider or {})`` that passes ``test``."""
    return _provider(lambda p, e, b: isinstance(e.get("modelOverrides"), dict)
                     and any(test(v, b.get(p) or {}) for v in e["modelOverrides"].values()))


def _builtin_ids(b: dict) -> list[str]:
    return [m.get("id") for m in b.get("models") or [] if isinstance(m, dict)]


def _outside_strings(text: str) -> str:
    """``text`` with the contents of its string literals taken out (the quotes stay)."""
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def _text(test: Callable[[str], bool]) -> Hit:
    return lambda input, tree: isinstance(input.get("modelsJsonText"), str) and test(input["modelsJsonText"])


def _bad_models(e: dict) -> int:
    return sum(1 for m in _model_entries(e) if not isinstance(m, dict) or not isinstance(m.get("id"), str) or not m["id"])


MODELS_LOAD = [
    Cell("file", "none", ("PI-MODELS-SCHEMA",), lambda i, t: "modelsJson" not in i and i.get("modelsJsonText") is None),
    Cell("file", "a JSON value", ("PI-MODELS-SCHEMA",), lambda i, t: "modelsJson" in i),
    Cell("file", "a text", ("PI-MODELS-JSON-COMMENTS",), lambda i, t: isinstance(i.get("modelsJsonText"), str)),
    Cell("text", "a // comment", ("PI-MODELS-JSON-COMMENTS",), _text(lambda s: "//" in re.sub(r'"(?:\\.|[^"\\])*"', "", s))),
    Cell("text", "// inside a string", ("PI-MODELS-JSON-COMMENTS",), _text(lambda s: bool(re.search(r'"[^"\n]*//[^"\n]*"', s)))),
    Cell("text", "a trailing comma", ("PI-MODELS-JSON-COMMENTS",), _text(lambda s: bool(re.search(r",\s*[}\]]", s)))),
    Cell("text", "a trailing comma before }", ("PI-MODELS-JSON-COMMENTS",), _text(lambda s: bool(re.search(r",\s*}", _outside_strings(s))))),
    Cell("text", "a trailing comma before ]", ("PI-MODELS-JSON-COMMENTS",), _text(lambda s: bool(re.search(r",\s*]", _outside_strings(s))))),
    Cell("text", "trailing commas at several depths", ("PI-MODELS-JSON-COMMENTS",),
         _text(lambda s: len(re.findall(r",\s*[}\]]", _outside_strings(s))) >= 2)),
    Cell("text", "a comment between a trailing comma and its bracket", ("PI-MODELS-JSON-COMMENTS",),
         _text(lambda s: bool(re.search(r",[ \t\r\n]*//[^\n]*\n\s*[}\]]", _outside_strings(s))))),
    Cell("text", "a comma before a bracket inside a string", ("PI-MODELS-JSON-COMMENTS",),
         _text(lambda s: any(re.search(r",\s*[}\]]", m) for m in re.findall(r'"(?:\\.|[^"\\])*"', s)))),
    Cell("text", "not JSON", ("PI-MODELS-SCHEMA",), _text(lambda s: _doc({"modelsJsonText": s}) is None)),
    Cell("schema", "a root that is not an object", ("PI-MODELS-SCHEMA",),
         lambda i, t: ("modelsJson" in i or isinstance(i.get("modelsJsonText"), str)) and _doc(i) is not None and not isinstance(_doc(i), dict)),
    Cell("schema", "providers not an object", ("PI-MODELS-SCHEMA",),
         lambda i, t: isinstance(_doc(i), dict) and "providers" in _doc(i) and not isinstance(_doc(i)["providers"], dict)),
    Cell("schema", "a model without an id", ("PI-MODELS-SCHEMA",), _provider(lambda p, e, b: _bad_models(e) > 0)),
    Cell("schema", "several bad fields", ("PI-MODELS-SCHEMA-EVERY-FIELD",),
         lambda i, t: sum(_bad_models(e) for e in _providers(i).values() if isinstance(e, dict)) >= 2),
    Cell("schema", "a bad field at index 10 or more", ("PI-MODELS-SCHEMA-EVERY-FIELD",),
         _provider(lambda p, e, b: len(_model_entries(e)) > 10 and any(not isinstance(m, dict) or not m.get("id") for m in _model_entries(e)[10:]))),
    Cell("schema", "unknown keys", ("PI-MODELS-SCHEMA",),
         _provider(lambda p, e, b: any(k not in ("baseUrl", "api", "apiKey", "headers", "models", "modelOverrides", "compat", "oauth",
                                                 "authHeader", "name") for k in e))),
    Cell("provider", "a built-in one", ("PI-MODELS-PROVIDER-FIELDS",), _provider(lambda p, e, b: p in b)),
    Cell("provider", "a new one", ("PI-MODELS-PROVIDER-FIELDS",), _provider(lambda p, e, b: p not in b)),
    Cell("provider", "baseUrl over built-in models", ("PI-MODELS-PROVIDER-FIELDS",), _provider(lambda p, e, b: p in b and "baseUrl" in e)),
    Cell("provider", "headers", ("PI-MODELS-PROVIDER-FIELDS",), _provider(lambda p, e, b: "headers" in e)),
    Cell("provider", "compat", ("PI-MODELS-PROVIDER-COMPAT",), _provider(lambda p, e, b: isinstance(e.get("compat"), dict))),
    Cell("provider", "compat beside a model's own", ("PI-MODELS-PROVIDER-COMPAT",),
         _model(lambda m, e, b: isinstance(e.get("compat"), dict) and isinstance(m.get("compat"), dict))),
    Cell("composition", "an entry setting nothing usable", ("PI-MODELS-COMPOSITION-ERROR",),
         _provider(lambda p, e, b: not any(k in e for k in ("baseUrl", "api", "apiKey", "headers", "models", "modelOverrides", "compat")))),
    Cell("composition", "oauth without baseUrl", ("PI-MODELS-COMPOSITION-ERROR",), _provider(lambda p, e, b: "oauth" in e and "baseUrl" not in e)),
    Cell("composition", "a new model with no api or baseUrl", ("PI-MODELS-COMPOSITION-ERROR",),
         _model(lambda m, e, b: not b and (not (m.get("api") or e.get("api")) or not (m.get("baseUrl") or e.get("baseUrl"))))),
    Cell("composition", "a bad provider beside a good one", ("PI-MODELS-COMPOSITION-ERROR",),
         lambda i, t: len(_providers(i)) >= 2 and any(isinstance(e, dict) and not any(
             k in e for k in ("baseUrl", "api", "apiKey", "headers", "models", "modelOverrides", "compat")) for e in _providers(i).values())),
    Cell("model", "added", ("PI-MODELS-ADD-REPLACE",), _model(lambda m, e, b: m.get("id") not in _builtin_ids(b))),
    Cell("model", "replacing a built-in one", ("PI-MODELS-ADD-REPLACE",), _model(lambda m, e, b: m.get("id") in _builtin_ids(b))),
    Cell("model", "replacing the second built-in one", ("PI-MODELS-ADD-REPLACE",),
         _model(lambda m, e, b: m.get("id") in _builtin_ids(b)[1:])),
    Cell("model", "every optional field absent", ("PI-MODELS-DEFAULTS",), _model(lambda m, e, b: set(m) <= {"id", "api", "baseUrl"})),
    Cell("model", "a field written null", ("PI-MODELS-NULL-FIELD",), _model(lambda m, e, b: any(v is None for v in m.values()))),
    Cell("model", "input empty", ("PI-MODELS-INPUT-AS-WRITTEN",), _model(lambda m, e, b: m.get("input") == [])),
    Cell("model", "input given", ("PI-MODELS-INPUT-AS-WRITTEN",), _model(lambda m, e, b: isinstance(m.get("input"), list) and bool(m["input"]))),
    Cell("model", "no api anywhere in the file, a built-in model of its id", ("PI-MODELS-DEFAULTS-EXISTING",),
         _model(lambda m, e, b: "api" not in m and "api" not in e and m.get("id") in _builtin_ids(b))),
    Cell("model", "no api anywhere in the file, a new id", ("PI-MODELS-DEFAULTS-EXISTING",),
         _model(lambda m, e, b: "api" not in m and "api" not in e and bool(b) and m.get("id") not in _builtin_ids(b))),
    Cell("model", "an api of its own", ("PI-MODELS-DEFAULTS",), _model(lambda m, e, b: "api" in m)),
    Cell("model", "image resize fields in part", ("PI-MODELS-IMAGE-RESIZE",),
         _model(lambda m, e, b: isinstance(((m.get("inputLimits") or {}).get("images") or {}).get("resize"), dict))),
    *[Cell("model", f"promptCache {tiers}", ("PI-MODELS-PROMPT-CACHE",),
           _model(lambda m, e, b, want=set(tiers.split(" and ")): isinstance(m.get("promptCache"), dict) and set(m["promptCache"]) == want))
      for tiers in ("short", "long", "long and short")],
    Cell("override", "an object field merged", ("PI-MODELS-OVERRIDE-MERGE",), _override(lambda v, b: isinstance(v, dict) and any(isinstance(x, dict) for x in v.values()))),
    Cell("override", "a nested object", ("PI-MODELS-OVERRIDE-MERGE",),
         _override(lambda v, b: isinstance(v, dict) and any(isinstance(x, dict) and any(isinstance(y, dict) for y in x.values()) for x in v.values()))),
    Cell("override", "an array replaced", ("PI-MODELS-OVERRIDE-MERGE",), _override(lambda v, b: isinstance(v, dict) and any(isinstance(x, list) for x in v.values()))),
    Cell("override", "a field written null", ("PI-MODELS-NULL-FIELD",), _override(lambda v, b: isinstance(v, dict) and any(x is None for x in v.values()))),
    Cell("override", "an unknown model id", ("PI-MODELS-OVERRIDE-UNKNOWN",),
         _provider(lambda p, e, b: isinstance(e.get("modelOverrides"), dict) and any(k not in _builtin_ids(b.get(p) or {}) for k in e["modelOverrides"]))),
    Cell("builtins", "none", ("PI-MODELS-PROVIDER-FIELDS",), lambda i, t: not i.get("builtins")),
    *character_cells(("PI-MODELS-SCHEMA",)),
]
"""The classes of ``pi.models-load``: no file, a value, a text with comments (and ``//`` in a
string), trailing commas, not JSON; each schema failure and several at once past index 9; built-in
and new providers, baseUrl, headers, compat on its own and beside a model's; each composition
error; models added and replacing, with every default, null fields, input empty and given, api
taken from existing models; image resize and prompt cache tiers; every override form."""


PARTITIONS["pi.models-load"] = MODELS_LOAD


# --- pi.models-auth, pi.models-available (PI-CRED-*) ------------------------------------------------------------------

def _auth_entries(input: dict) -> list[Any]:
    found = input.get("authJson")
    return list(found.values()) if isinstance(found, dict) else []


def _api_keys(input: dict) -> list[str]:
    return [e["apiKey"] for e in _providers(input).values() if isinstance(e, dict) and isinstance(e.get("apiKey"), str)]


def _header_values(input: dict) -> list[str]:
    out = []
    for e in _providers(input).values():
        if not isinstance(e, dict):
            continue
        layers = [e.get("headers")] + [m.get("headers") for m in _model_entries(e) if isinstance(m, dict)]
        layers += [o.get("headers") for o in (e.get("modelOverrides") or {}).values() if isinstance(o, dict)]
        out += [v for h in layers if isinstance(h, dict) for v in h.values() if isinstance(v, str)]
    return out


def _key_form(test: Callable[[str, dict], bool]) -> Hit:
    """A models.json apiKey that passes ``test(value, env)``."""
    return lambda i, t: any(test(k, i.get("env") or {}) for k in _api_keys(i))


def _var_unset(value: str, env: dict) -> bool:
    names = _names(value) if not value.startswith("!") else []
    return any(not env.get(n) for n in names)


def _header_names(input: dict) -> list[list[str]]:
    """Each provider's header names, every layer together."""
    out = []
    for e in _providers(input).values():
        if isinstance(e, dict):
            layers = [e.get("headers")] + [m.get("headers") for m in _model_entries(e) if isinstance(m, dict)]
            layers += [o.get("headers") for o in (e.get("modelOverrides") or {}).values() if isinstance(o, dict)]
            out.append([k for h in layers if isinstance(h, dict) for k in h])
    return out


def credential_cells(clauses: tuple[str, ...] = ("PI-CRED-PRECEDENCE",)) -> list[Cell]:
    """The classes of the credential sources an input gives (runtime keys, ``auth.json``,
    ``models.json`` keys and headers, the environment)."""
    env = lambda i: i.get("env") if isinstance(i.get("env"), dict) else {}  # noqa: E731
    runtime = lambda i: i.get("runtimeKeys") if isinstance(i.get("runtimeKeys"), dict) else {}  # noqa: E731
    return [
        Cell("runtime key", "set", clauses, lambda i, t: any(runtime(i).values())),
        Cell("runtime key", "empty", clauses, lambda i, t: "" in runtime(i).values()),
        Cell("stored", "an API key", clauses, lambda i, t: any(isinstance(e, dict) and e.get("type") == "api_key" and e.get("key") for e in _auth_entries(i))),
        Cell("stored", "an empty key", clauses, lambda i, t: any(isinstance(e, dict) and e.get("key") == "" for e in _auth_entries(i))),
        Cell("stored", "no type, a key", ("PI-CRED-STORED-UNTYPED",),
             lambda i, t: any(isinstance(e, dict) and "type" not in e and isinstance(e.get("key"), str) and e["key"] for e in _auth_entries(i))),
        Cell("stored", "no type, no key", ("PI-CRED-STORED-UNTYPED",),
             lambda i, t: any(isinstance(e, dict) and "type" not in e and not e.get("key") for e in _auth_entries(i))),
        Cell("stored", "oauth", clauses, lambda i, t: any(isinstance(e, dict) and e.get("type") == "oauth" for e in _auth_entries(i))),
        Cell("stored", "carrying env", ("PI-CRED-REQUIRED-ENV",), lambda i, t: any(isinstance(e, dict) and isinstance(e.get("env"), dict) for e in _auth_entries(i))),
        Cell("models.json key", "a literal", clauses, _key_form(lambda k, e: "$" not in k and not k.startswith("!") and k != "")),
        Cell("models.json key", "a variable set", clauses, _key_form(lambda k, e: bool(_names(k)) and not _var_unset(k, e))),
        Cell("models.json key", "a variable unset or empty", ("PI-CRED-MODELS-JSON-UNRESOLVED",), _key_form(_var_unset)),
        Cell("models.json key", "a command", ("PI-CRED-MODELS-JSON-UNRESOLVED",), _key_form(lambda k, e: k.startswith("!"))),
        Cell("models.json key", "a failing command", ("PI-CRED-MODELS-JSON-UNRESOLVED",),
             _key_form(lambda k, e: k.startswith("!") and bool(re.search(r"\bfalse\b|exit [1-9]", k)))),
        Cell("models.json key", "empty", clauses, _key_form(lambda k, e: k == "")),
        Cell("environment", "the provider's key set", clauses,
             lambda i, t: any(env(i).get(n) for p in (i.get("builtins") or {}).values() if isinstance(p, dict) for n in p.get("env") or [])),
        Cell("environment", "the provider's key empty", clauses,
             lambda i, t: any(env(i).get(n) == "" for p in (i.get("builtins") or {}).values() if isinstance(p, dict) for n in p.get("env") or [])),
        Cell("environment", "a required variable missing", ("PI-CRED-REQUIRED-ENV",),
             lambda i, t: any(not env(i).get(n) for p in (i.get("builtins") or {}).values() if isinstance(p, dict) for n in p.get("requiredEnv") or [])),
        Cell("environment", "a required variable set", ("PI-CRED-REQUIRED-ENV",),
             lambda i, t: any(env(i).get(n) for p in (i.get("builtins") or {}).values() if isinstance(p, dict) for n in p.get("requiredEnv") or [])),
        Cell("sources", "several configured", clauses,
             lambda i, t: sum(bool(x) for x in (any(runtime(i).values()), any(isinstance(e, dict) and e.get("key") for e in _auth_entries(i)),
                                                bool(_api_keys(i)), any(env(i).values()))) >= 2),
        Cell("sources", "none", clauses, lambda i, t: not runtime(i) and not _auth_entries(i) and not _api_keys(i) and not env(i)),
        Cell("headers", "naming a missing variable", ("PI-CRED-HEADER-MISSING",),
             lambda i, t: any(_var_unset(v, env(i)) or v.startswith("!") for v in _header_values(i))),
        Cell("headers", "one name in two layers, other case", ("PI-CRED-HEADER-LAYERS",),
             lambda i, t: any(len({n.lower() for n in names}) < len(names) for names in _header_names(i))),
        Cell("headers", "authHeader true", ("PI-CRED-AUTH-HEADER",), _provider(lambda p, e, b: e.get("authHeader") is True)),
        Cell("headers", "authHeader true over an Authorization header", ("PI-CRED-AUTH-HEADER",),
             _provider(lambda p, e, b: e.get("authHeader") is True and any(k.lower() == "authorization" for k in (e.get("headers") or {})))),
        Cell("headers", "authHeader false", ("PI-CRED-AUTH-HEADER",), _provider(lambda p, e, b: e.get("authHeader") is False)),
    ]


MODELS_AUTH = [
    *credential_cells(),
    Cell("model", "a models.json model", ("PI-CRED-HEADER-LAYERS",),
         lambda i, t: any(isinstance(m, dict) and m.get("id") == i.get("model") for e in _providers(i).values() if isinstance(e, dict)
                          for m in _model_entries(e))),
    Cell("model", "an unknown provider", ("PI-CRED-PRECEDENCE",), lambda i, t: i.get("provider") not in (i.get("builtins") or {}) and i.get("provider") not in _providers(i)),
]
"""The classes of ``pi.models-auth``: every credential source in each form (runtime keys, stored
keys typed, untyped, empty, oauth, with env; models.json keys literal, variables set and unset,
commands that succeed and fail; environment keys; required variables), several sources at once,
none, headers naming missing variables, in layers, and authHeader."""

MODELS_AVAILABLE = [
    *[c for c in credential_cells(("PI-MODELS-AVAILABILITY",)) if c.dimension != "headers"],
    *[Cell("type", k, ("PI-CLASSIFIER-LISTING",) if k == "classifier" else ("PI-MODELS-AVAILABILITY",),
           (lambda i, t, k=k: i.get("type", "chat") == k)) for k in ("chat", "classifier")],
    Cell("provider", "a keyless local endpoint with its dummy key", ("PI-MODELS-AVAILABILITY",),
         _provider(lambda p, e, b: "localhost" in str(e.get("baseUrl", "")) and isinstance(e.get("apiKey"), str))),
    Cell("provider", "a keyless local endpoint without a key", ("PI-MODELS-AVAILABILITY",),
         _provider(lambda p, e, b: "localhost" in str(e.get("baseUrl", "")) and "apiKey" not in e)),
    Cell("models", "a provider's models out of id order", ("PI-MODELS-AVAILABILITY",),
         lambda i, t: any(ids != sorted(ids) for ids in _model_id_lists(i))),
]
"""The classes of ``pi.models-available``: those of the credential sources, chat and classifier
listings, local endpoints with and without their dummy key, and a provider whose models are not
in id order."""


def _model_id_lists(input: dict) -> list[list[str]]:
    """The model ids of each built-in provider and each ``models.json`` provider entry, in order."""
    builtins = input.get("builtins") if isinstance(input.get("builtins"), dict) else {}
    out = [[i for i in _builtin_ids(b) if isinstance(i, str)] for b in builtins.values() if isinstance(b, dict)]
    out += [[m["id"] for m in _model_entries(e) if isinstance(m, dict) and isinstance(m.get("id"), str)]
            for e in _providers(input).values() if isinstance(e, dict)]
    return out


PARTITIONS["pi.models-auth"] = MODELS_AUTH
PARTITIONS["pi.models-available"] = MODELS_AVAILABLE


# --- the classifier operations (PI-CLASSIFIER-*) ---------------------------------------------------------------------

QUESTION_TYPES = ("choice", "bool", "score")


def _request(input: dict) -> Any:
    return input.get("request")


def _questions(input: dict) -> dict:
    found = _request(input).get("questions") if isinstance(_request(input), dict) else None
    return found if isinstance(found, dict) else {}


def _question(test: Callable[[Any], bool]) -> Hit:
    return lambda input, tree: any(test(q) for q in _questions(input).values())


def _typed(kind: str, test: Callable[[dict], bool] = lambda q: True) -> Hit:
    return _question(lambda q: isinstance(q, dict) and q.get("type") == kind and test(q))


def question_problems(q: Any) -> list[str]:
    """Every problem of one question in the order PI-CLASSIFIER-REQUEST checks them: ``object``,
    ``instructions``, ``type``, ``criteria`` (the last only for a known type)."""
    if not isinstance(q, dict):
        return ["object"]
    found = [] if isinstance(q.get("instructions"), str) else ["instructions"]
    kind, criteria = q.get("type"), q.get("criteria")
    if kind not in QUESTION_TYPES:
        return found + ["type"]
    strings = lambda vs: bool(vs) and all(isinstance(v, str) for v in vs)
    fits = {"choice": isinstance(criteria, dict) and strings(list(criteria.values())),
            "bool": isinstance(criteria, dict) and isinstance(criteria.get("true"), str) and isinstance(criteria.get("false"), str),
            "score": isinstance(criteria, list) and strings(criteria)}[kind]
    return found if fits else found + ["criteria"]


def _state_wrong(input: dict) -> bool:
    return isinstance(_request(input), dict) and not isinstance(_request(input).get("state"), dict)


def _questions_wrong(input: dict) -> bool:
    found = _request(input).get("questions") if isinstance(_request(input), dict) else None
    return not isinstance(found, dict) or not found


def _criteria_fit_no_type(q: dict) -> bool:
    criteria = q.get("criteria")
    values = list(criteria.values()) if isinstance(criteria, dict) else criteria if isinstance(criteria, list) else None
    return not values or not all(isinstance(v, str) for v in values)


CLASSIFIER_REQUEST = [
    Cell("request", "not an object", ("PI-CLASSIFIER-REQUEST",), lambda i, t: not isinstance(_request(i), dict)),
    Cell("state", "an object", ("PI-CLASSIFIER-REQUEST",), lambda i, t: isinstance(_request(i), dict) and isinstance(_request(i).get("state"), dict)),
    Cell("state", "absent", ("PI-CLASSIFIER-REQUEST",), lambda i, t: isinstance(_request(i), dict) and "state" not in _request(i)),
    Cell("state", "not an object", ("PI-CLASSIFIER-REQUEST",),
         lambda i, t: isinstance(_request(i), dict) and "state" in _request(i) and not isinstance(_request(i)["state"], dict)),
    Cell("questions", "absent", ("PI-CLASSIFIER-REQUEST",), lambda i, t: isinstance(_request(i), dict) and "questions" not in _request(i)),
    Cell("questions", "empty", ("PI-CLASSIFIER-REQUEST",), lambda i, t: isinstance(_request(i), dict) and _request(i).get("questions") == {}),
    Cell("questions", "not an object", ("PI-CLASSIFIER-REQUEST",),
         lambda i, t: isinstance(_request(i), dict) and "questions" in _request(i) and not isinstance(_request(i)["questions"], dict)),
    Cell("questions", "several", ("PI-CLASSIFIER-REQUEST",), lambda i, t: len(_questions(i)) >= 2),
    *[Cell("question", k, ("PI-CLASSIFIER-REQUEST",), _typed(k)) for k in QUESTION_TYPES],
    Cell("question", "another type", ("PI-CLASSIFIER-REQUEST",), _question(lambda q: isinstance(q, dict) and q.get("type") not in QUESTION_TYPES)),
    Cell("question", "not an object", ("PI-CLASSIFIER-REQUEST",), _question(lambda q: not isinstance(q, dict))),
    Cell("question", "instructions not a string", ("PI-CLASSIFIER-REQUEST",),
         _question(lambda q: isinstance(q, dict) and not isinstance(q.get("instructions"), str))),
    Cell("criteria", "choice labels", ("PI-CLASSIFIER-REQUEST",),
         _typed("choice", lambda q: isinstance(q.get("criteria"), dict) and bool(q["criteria"]))),
    Cell("criteria", "choice not an object or empty", ("PI-CLASSIFIER-REQUEST",),
         _typed("choice", lambda q: not isinstance(q.get("criteria"), dict) or not q["criteria"])),
    Cell("criteria", "bool true and false", ("PI-CLASSIFIER-REQUEST",),
         _typed("bool", lambda q: isinstance(q.get("criteria"), dict) and set(q["criteria"]) == {"true", "false"})),
    Cell("criteria", "bool other keys", ("PI-CLASSIFIER-REQUEST",),
         _typed("bool", lambda q: not (isinstance(q.get("criteria"), dict) and set(q["criteria"]) == {"true", "false"}))),
    Cell("criteria", "score levels", ("PI-CLASSIFIER-REQUEST",), _typed("score", lambda q: isinstance(q.get("criteria"), list) and bool(q["criteria"]))),
    Cell("criteria", "score not a list or empty", ("PI-CLASSIFIER-REQUEST",),
         _typed("score", lambda q: not isinstance(q.get("criteria"), list) or not q["criteria"])),
    Cell("problems", "state and questions both wrong", ("PI-CLASSIFIER-REQUEST",),
         lambda i, t: _state_wrong(i) and _questions_wrong(i)),
    Cell("problems", "state wrong and a question wrong", ("PI-CLASSIFIER-REQUEST",),
         lambda i, t: _state_wrong(i) and any(question_problems(q) for q in _questions(i).values())),
    Cell("problems", "one question: instructions not a string and an unknown type", ("PI-CLASSIFIER-REQUEST",),
         _question(lambda q: question_problems(q)[:2] == ["instructions", "type"])),
    Cell("problems", "one question: an unknown type and criteria fitting no type", ("PI-CLASSIFIER-REQUEST",),
         _question(lambda q: question_problems(q)[-1:] == ["type"] and _criteria_fit_no_type(q))),
    Cell("problems", "a wrong question before a question wrong in another way", ("PI-CLASSIFIER-REQUEST",),
         lambda i, t: any(question_problems(a) and question_problems(b) and question_problems(a)[0] != question_problems(b)[0]
                          for n, a in enumerate(_questions(i).values()) for b in list(_questions(i).values())[n + 1:])),
    *character_cells(("PI-CLASSIFIER-REQUEST",)),
]
"""The classes of ``pi.classifier-request``: the request, its state and its questions in each
form, each question type and another, criteria of each type well and badly formed."""


def _usage(test: Callable[[Any], bool]) -> Hit:
    return lambda input, tree: test(input.get("usage"))


def _not_count(value: Any) -> bool:
    """Whether a reported token count is not a whole number of at least 0."""
    return type(value) not in (int, float) or value < 0 or value != int(value)


def _number(value: Any) -> bool:
    return type(value) in (int, float) and value == value and abs(value) != float("inf")


def _count(test: Callable[[Any], bool]) -> Hit:
    """The class of usage objects with a count (reported, even as null) that passes ``test``."""
    return _usage(lambda u: isinstance(u, dict) and any(test(u[k]) for k in ("input_tokens", "output_tokens") if k in u))


CLASSIFIER_USAGE = [
    Cell("usage", "both counts", ("PI-CLASSIFIER-COST",), _usage(lambda u: isinstance(u, dict) and "input_tokens" in u and "output_tokens" in u)),
    Cell("usage", "one count", ("PI-CLASSIFIER-COST",), _usage(lambda u: isinstance(u, dict) and len({"input_tokens", "output_tokens"} & set(u)) == 1)),
    Cell("usage", "no counts", ("PI-CLASSIFIER-COST",), _usage(lambda u: isinstance(u, dict) and not {"input_tokens", "output_tokens"} & set(u))),
    Cell("usage", "not an object", ("PI-CLASSIFIER-COST",), _usage(lambda u: not isinstance(u, dict))),
    Cell("count", "a million", ("PI-CLASSIFIER-COST",), _usage(lambda u: isinstance(u, dict) and 1_000_000 in (u.get("input_tokens"), u.get("output_tokens")))),
    Cell("count", "zero", ("PI-CLASSIFIER-COST",), _usage(lambda u: isinstance(u, dict) and 0 in (u.get("input_tokens"), u.get("output_tokens")))),
    Cell("count", "negative, fractional or not a number", ("PI-CLASSIFIER-COST",),
         _usage(lambda u: isinstance(u, dict) and any(_not_count(u[k]) for k in ("input_tokens", "output_tokens") if k in u))),
    *[Cell("count", name, ("PI-CLASSIFIER-USAGE-REPORT",), _count(test)) for name, test in (
        ("a boolean (not a number: 0)", lambda v: isinstance(v, bool)),
        ("a string, of digits or not (not a number: 0)", lambda v: isinstance(v, str)),
        ("null (0)", lambda v: v is None),
        ("an object or a list (not a number: 0)", lambda v: isinstance(v, (dict, list))),
        ("negative (0)", lambda v: _number(v) and v < 0),
        ("fractional above 0 (kept)", lambda v: _number(v) and 0 < v != int(v)),
        ("of 2**53 or more (kept)", lambda v: _number(v) and v >= 2**53))],
    Cell("price", "none", ("PI-CLASSIFIER-COST", "PI-CLASSIFIER-PRICE-INPUT"), lambda i, t: i.get("cost") is None),
    Cell("price", "given", ("PI-CLASSIFIER-COST",), lambda i, t: isinstance(i.get("cost"), dict)),
    Cell("price", "with cache prices", ("PI-CLASSIFIER-COST",), lambda i, t: isinstance(i.get("cost"), dict) and ("cacheRead" in i["cost"] or "cacheWrite" in i["cost"])),
    Cell("price", "fractional", ("PI-CLASSIFIER-COST",),
         lambda i, t: isinstance(i.get("cost"), dict) and any(isinstance(v, float) and v != int(v) for v in i["cost"].values())),
]
"""The classes of ``pi.classifier-usage``: usage with both, one or no counts or not an object,
counts of a million, zero, and those that are not counts, by kind (booleans, strings, null, objects
and lists, negative numbers) beside the numbers kept (fractional, 2**53 or more); a price or none,
with cache prices, fractional."""

CLASSIFIER_CATALOGUE = [Cell("input", "none (the catalogue takes no input)", ("PI-CLASSIFIER-CATALOGUE",), lambda i, t: i == {})]
"""The one class of ``pi.classifier-catalogue``, which takes no input."""


PARTITIONS.update({"pi.classifier-request": CLASSIFIER_REQUEST, "pi.classifier-usage": CLASSIFIER_USAGE,
                   "pi.classifier-catalogue": CLASSIFIER_CATALOGUE})
