"""The input classes of the template operations (PI-DECISION-TEMPLATES): argument parsing,
substitution, expansion and loading."""

from __future__ import annotations

import posixpath
import re
from typing import Callable

from conformance.strategies.partitions.cells import (Cell, Hit, absent, any_of, case_pair_cells, character_cells,
                                                    entries, entry_text, field_hit, file_hit, invalid_utf8,
                                                    tree_hit, tree_texts)

def _content(pattern: str) -> Hit:
    found = re.compile(pattern)
    return lambda input, tree: bool(found.search(input.get("content") or ""))


def _args(test: Callable[[list], bool]) -> Hit:
    return lambda input, tree: test(input.get("args") or [])


def _max_positional(content: str) -> int:
    numbers = [int(n) for n in re.findall(r"\$(\d+)|\$\{(\d+):-", content) for n in n if n]
    return max(numbers, default=-1)


SUBSTITUTE_ARGS = [
    Cell("placeholder form", "$N", ("PI-TPL-SUB-POSITIONAL",), _content(r"\$[1-9]\d*")),
    Cell("placeholder form", "$0", ("PI-TPL-SUB-POSITIONAL",), _content(r"\$0")),
    Cell("placeholder form", "$N of two digits", ("PI-TPL-SUB-POSITIONAL",), _content(r"\$\d\d")),
    Cell("placeholder form", "$@", ("PI-TPL-SUB-ALL",), _content(r"\$@")),
    Cell("placeholder form", "$ARGUMENTS", ("PI-TPL-SUB-ALL",), _content(r"\$ARGUMENTS")),
    Cell("placeholder form", "${N:-default}", ("PI-TPL-SUB-DEFAULT",), _content(r"\$\{\d+:-")),
    Cell("placeholder form", "${@:-default}", ("PI-TPL-SUB-ALL-DEFAULT",), _content(r"\$\{@:-")),
    Cell("placeholder form", "${ARGUMENTS:-default}", ("PI-TPL-SUB-ALL-DEFAULT",), _content(r"\$\{ARGUMENTS:-")),
    Cell("placeholder form", "${@:N}", ("PI-TPL-SUB-SLICE",), _content(r"\$\{@:\d+\}")),
    Cell("placeholder form", "${@:N:L}", ("PI-TPL-SUB-SLICE",), _content(r"\$\{@:\d+:\d+\}")),
    Cell("placeholder form", "${@:0...} (N = 0)", ("PI-TPL-SUB-SLICE",), _content(r"\$\{@:0[:}]")),
    Cell("placeholder form", "no placeholder (near miss kept)", ("PI-TPL-SUB-ONE-PASS",),
         _content(r"\$\{\d*\}|\$\{@:\D|\$arguments|\$\{ ")),
    Cell("default text", "empty default", ("PI-TPL-SUB-DEFAULT-TEXT",), _content(r":-\}")),
    Cell("default text", "default holding $", ("PI-TPL-SUB-DEFAULT-TEXT",), _content(r":-[^}]*\$")),
    Cell("arguments", "none", ("PI-TPL-SUB-ALL-DEFAULT",), _args(lambda a: a == [])),
    Cell("arguments", "one empty argument", ("PI-TPL-SUB-ALL-DEFAULT", "PI-TPL-SUB-DEFAULT"), _args(lambda a: a == [""])),
    Cell("arguments", "an empty argument among others", ("PI-TPL-SUB-DEFAULT",), _args(lambda a: len(a) > 1 and "" in a)),
    Cell("arguments", "argument holding placeholder text", ("PI-TPL-SUB-ONE-PASS",),
         _args(lambda a: any("$" in x for x in a))),
    Cell("arguments", "positional past the last argument", ("PI-TPL-SUB-POSITIONAL",),
         lambda input, tree: _max_positional(input.get("content") or "") > len(input.get("args") or [])),
    *character_cells(("PI-TPL-SUB-ONE-PASS",)),
]
"""The classes of ``pi.substitute-args``: every placeholder form of the substitution table and
its near misses, the default's text, the arguments against the placeholders' numbers."""


def _text(pattern: str) -> Hit:
    found = re.compile(pattern)
    return lambda input, tree: bool(found.search(input.get("text") or ""))


PARSE_ARGS = [
    Cell("emptiness", "empty text", ("PI-TPL-ARGS-SPLIT",), lambda input, tree: input.get("text") == ""),
    Cell("emptiness", "blank text", ("PI-TPL-ARGS-SPLIT",),
         lambda input, tree: bool(input.get("text")) and not (input.get("text") or "").strip()),
    Cell("separator", "run of spaces", ("PI-TPL-ARGS-SPLIT",), _text(r"\S  +\S")),
    Cell("separator", "tab or newline", ("PI-TPL-ARGS-SPLIT",), _text(r"[\t\n]")),
    Cell("separator", "Unicode space", ("PI-TPL-ARGS-SPLIT",), _text("[\u00a0\u3000]")),
    Cell("separator", "JavaScript white space beyond the spaces (U+FEFF, U+2028, U+2029, U+1680)", ("PI-TPL-ARGS-SPLIT",),
         _text("[\ufeff\u2028\u2029\u1680]")),
    Cell("separator", "white space elsewhere, not to JavaScript (U+001C..U+001F, U+0085)", ("PI-TPL-ARGS-SPLIT",),
         _text("[\u001c-\u001f\u0085]")),
    Cell("separator", "leading or trailing whitespace", ("PI-TPL-ARGS-SPLIT",), _text(r"^\s|\s$")),
    Cell("quote", "double-quoted argument", ("PI-TPL-ARGS-QUOTE",), _text(r'(^|\s)"[^"]+"')),
    Cell("quote", "single-quoted argument", ("PI-TPL-ARGS-QUOTE",), _text(r"(^|\s)'[^']+'")),
    Cell("quote", "quote inside a word", ("PI-TPL-ARGS-QUOTE",), _text(r"\w[\"']")),
    Cell("quote", "other quote inside a quote", ("PI-TPL-ARGS-QUOTE",), _text(r"\"[^\"]*'[^\"]*\"|'[^']*\"[^']*'")),
    Cell("quote", "text right after the closing quote", ("PI-TPL-ARGS-QUOTE",), _text(r"(^|\s)(\"[^\"]*\"|'[^']*')[^\s\"']")),
    Cell("escape", "backslash before the quote inside it", ("PI-TPL-ARGS-ESCAPE",), _text(r"\"[^\"]*\\\"|'[^']*\\'")),
    Cell("escape", "backslash outside quotes", ("PI-TPL-ARGS-ESCAPE",), _text(r"(^|\s)[^\"'\s]*\\")),
    Cell("escape", "run of backslashes inside a quote, not before its quote character", ("PI-TPL-ARGS-ESCAPE",),
         _text(r"(^|\s)(\"[^\"]*\\\\+[^\\\"]|'[^']*\\\\+[^\\'])")),
    Cell("escape", "run of backslashes before the quote inside it", ("PI-TPL-ARGS-ESCAPE",),
         _text(r"(^|\s)(\"[^\"]*\\\\+\"|'[^']*\\\\+')")),
    Cell("escape", "run of backslashes outside quotes", ("PI-TPL-ARGS-ESCAPE",), _text(r"(^|\s)[^\"'\s]*\\\\")),
    Cell("emptiness", "empty quoted argument", ("PI-TPL-ARGS-EMPTY",), _text(r"(^|\s)(\"\"|'')")),
    Cell("quote", "unterminated quote", ("PI-TPL-ARGS-UNTERMINATED",),
         lambda input, tree: _unterminated(input.get("text") or "")),
    *character_cells(("PI-TPL-ARGS-SPLIT",)),
]
"""The classes of ``pi.parse-args``: emptiness, every separator the split names, every quoting
and escaping form, and an unterminated quote."""


def _unterminated(text: str) -> bool:
    """Whether a quote opened at an argument's start is still open at the end (roughly: an odd
    count of one quote character)."""
    return text.count('"') % 2 == 1 or text.count("'") % 2 == 1


def _names(input: dict) -> list[str]:
    return [t.get("name") for t in input.get("templates") or []]


def _command(input: dict) -> str:
    """The name the input's text names (after ``/``, up to whitespace), or ``""``."""
    m = re.match(r"/(\S+)", input.get("text") or "")
    return m.group(1) if m else ""


def _expand(test: Callable[[dict], bool]) -> Hit:
    return lambda input, tree: test(input)


def _expanded(input: dict) -> dict | None:
    """The first template the command names, or ``None``."""
    return next((t for t in input.get("templates") or [] if t.get("name") == _command(input)), None)


EXPAND_INPUT = [
    Cell("command form", "/name alone", ("PI-TPL-EXPAND-MATCH",), _text(r"^/\S+$")),
    Cell("command form", "/name and arguments after a space", ("PI-TPL-EXPAND-MATCH",), _text(r"^/\S+ \S")),
    Cell("command form", "/name and arguments after a tab or newline", ("PI-TPL-EXPAND-MATCH", "PI-TPL-EXPAND-EXTENSION-NAME"),
         _text(r"^/[^\s]+[\t\n]")),
    Cell("command form", "leading whitespace", ("PI-TPL-EXPAND-MATCH",), _text(r"^\s+/")),
    Cell("command form", "/ alone or before whitespace", ("PI-TPL-EXPAND-MATCH",), _text(r"^/(\s|$)")),
    Cell("command form", "no leading /", ("PI-TPL-EXPAND-MATCH",), _text(r"^[^/\s]|^$")),
    Cell("template", "named template with placeholders", ("PI-TPL-EXPAND-MATCH",),
         _expand(lambda i: "$" in ((_expanded(i) or {}).get("content") or ""))),
    Cell("template", "named template without placeholders, arguments given", ("PI-TPL-EXPAND-NO-PLACEHOLDERS",),
         _expand(lambda i: _expanded(i) is not None and "$" not in (_expanded(i).get("content") or "")
                 and bool(re.match(r"/\S+\s+\S", i.get("text") or "")))),
    Cell("template", "unknown name", ("PI-TPL-EXPAND-MATCH",),
         _expand(lambda i: bool(_command(i)) and _command(i) not in _names(i)
                 and _command(i) not in (i.get("extensionCommands") or []))),
    Cell("template", "two templates of the name", ("PI-TPL-EXPAND-MATCH",),
         _expand(lambda i: _names(i).count(_command(i)) > 1)),
    Cell("template", "no templates", ("PI-TPL-EXPAND-MATCH",), _expand(lambda i: not i.get("templates"))),
    Cell("extension", "extension command of a template's name", ("PI-TPL-EXPAND-EXTENSION",),
         _expand(lambda i: bool(_command(i)) and _command(i) in (i.get("extensionCommands") or [])
                 and _command(i) in _names(i))),
    Cell("extension", "extension command only", ("PI-TPL-EXPAND-EXTENSION", "PI-TPL-EXPAND-EXTENSION-NAME"),
         _expand(lambda i: bool(_command(i)) and _command(i) in (i.get("extensionCommands") or [])
                 and _command(i) not in _names(i))),
    Cell("extension", "extension command name ended by a tab or newline", ("PI-TPL-EXPAND-EXTENSION-NAME",),
         _expand(lambda i: any(re.match("/" + re.escape(c) + r"[\t\n]", i.get("text") or "")
                               for c in i.get("extensionCommands") or []))),
    Cell("extension", "absent", ("PI-TPL-EXPAND-EXTENSION",), absent("extensionCommands")),
    *case_pair_cells(("PI-TPL-EXPAND-MATCH",), lambda i, t: [*_names(i), _command(i)]),
    *character_cells(("PI-TPL-EXPAND-MATCH",)),
]
"""The classes of ``pi.expand-input``: every form of the command text, whether the named
template exists, has placeholders or is named twice, and the extension commands."""


PROMPTS = r"^(agent/prompts|project/\.pi/prompts)/"


def _conventional(pattern: str, test: Callable[[str], bool] = lambda text: True) -> Hit:
    return file_hit(PROMPTS + pattern, test)


def _md(test: Callable[[str], bool]) -> Hit:
    return _conventional(r"[^/]+\.md$", test)


def _body(text: str) -> str:
    """The text a description falls back from: after the frontmatter, if any."""
    m = re.match(r"---.*?\n---[^\n]*\n?", text, re.S)
    return text[m.end():] if m else text


def _first_line(text: str) -> str:
    return next((line for line in _body(text).replace("\r\n", "\n").split("\n") if line.strip()), "")


def _fallback_length(test: Callable[[int], bool]) -> Hit:
    return _md(lambda t: not re.search(r"^---.*\ndescription: *\S", t, re.S) and bool(_first_line(t))
               and test(len(_first_line(t))))


def _paths(test: Callable[[list], bool]) -> Hit:
    return lambda input, tree: test(input.get("paths") or [])


def _lists(test: Callable[[list], bool]) -> Hit:
    return lambda input, tree: any(test(input.get(k) or []) for k in ("personalPrompts", "projectPrompts"))


def _in_tree(path: str, tree: dict | None) -> bool:
    where = posixpath.normpath("project/" + path)
    return any(p == where or p.startswith(where + "/") for p, _ in entries(tree))


def _file_names(input: dict, tree: dict | None) -> list[str]:
    return [p.rsplit("/", 1)[1].removesuffix(".md") for p, e in entries(tree) if re.match(PROMPTS + r"[^/]+\.md$", p)]


CORE_SCALARS = {
    "an integer": r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+",
    "a float": r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.nan|\.NaN|\.NAN",
    "a boolean": r"true|True|TRUE|false|False|FALSE",
    "null": r"~|null|Null|NULL",
}
"""The plain scalars the YAML 1.2 core schema resolves to something other than a string
(PI-TPL-YAML-SCHEMA), by kind; the empty value, also null, is the class ``empty or null``."""


def _field_values(text: str, key: str) -> list[str]:
    """The values a file's frontmatter writes for ``key``: on a line of its own (``key: value``,
    a comment after it cut off) or in a flow mapping (``{key: value, ...}``)."""
    m = re.match(r"---[^\n]*\n(.*?)^---", text.replace("\r\n", "\n"), re.S | re.M)
    if not m:
        return []
    name = re.escape(key)
    block = re.findall(r"^" + name + r":[ \t]*(.*?)(?:[ \t]+#.*)?[ \t]*$", m.group(1), re.M)
    flow = re.findall(r"[{,][ \t]*" + name + r":[ \t]*([^,}\n]*?)[ \t]*(?=[,}])", m.group(1))
    return block + flow


def _scalar_kind(value: str) -> str | None:
    """The core schema kind (a key of :data:`CORE_SCALARS`) of a plain value, ``"quoted"`` for a
    quoted value of such a form (a string), else ``None``."""
    for kind, pattern in CORE_SCALARS.items():
        if re.fullmatch(pattern, value):
            return kind
    quoted = re.fullmatch(r"\"(.*)\"|'(.*)'", value)
    inner = quoted and (quoted.group(1) if quoted.group(1) is not None else quoted.group(2))
    return "quoted" if inner and any(re.fullmatch(p, inner) for p in CORE_SCALARS.values()) else None


def _non_empty_string(key: str) -> Hit:
    """Files whose frontmatter writes ``key`` as a scalar the core schema reads as a non-empty
    string: plain and not of a :data:`CORE_SCALARS` form, or quoted and not empty."""
    return _md(lambda t: any(v[:1] not in ("", "[", "{") and v not in ('""', "''") and _scalar_kind(v) not in CORE_SCALARS
                             for v in _field_values(t, key)))


def _blank_string(key: str) -> Hit:
    """Files whose frontmatter parses (YAML) with ``key`` a string of white space only: not empty,
    so PI-TPL-DESCRIPTION and PI-TPL-ARGUMENT-HINT keep it as written."""
    import yaml

    def test(text: str) -> bool:
        m = re.match(r"---[^\n]*\n(.*?)^---", text.replace("\r\n", "\n"), re.S | re.M)
        try:
            fields = yaml.safe_load(m.group(1)) if m else None
        except yaml.YAMLError:
            return False
        value = fields.get(key) if isinstance(fields, dict) else None
        return isinstance(value, str) and value != "" and not value.strip()

    return _md(test)


def _text_field_cells(dimension: str, key: str, clause: str) -> list[Cell]:
    """The classes of a frontmatter text field by the scalar written: each kind the core schema
    does not read as a string, and the same forms quoted (strings)."""
    def kind_hit(kind: str) -> Hit:
        return _md(lambda t: any(_scalar_kind(v) == kind for v in _field_values(t, key)))

    return [*[Cell(dimension, f"{kind} (not a string)", (clause, "PI-TPL-YAML-SCHEMA"), kind_hit(kind)) for kind in CORE_SCALARS],
            Cell(dimension, "a quoted integer, float, boolean or null (a string)", (clause, "PI-TPL-YAML-SCHEMA"), kind_hit("quoted"))]


LOAD_TEMPLATES = [
    Cell("file", "direct .md child", ("PI-TPL-DIRS", "PI-TPL-NAME"), _md(lambda t: True)),
    Cell("file", "name not ending in .md", ("PI-TPL-DIRS",),
         tree_hit(lambda p, e: bool(re.match(PROMPTS + r"[^/]+$", p)) and not p.endswith(".md"))),
    Cell("file", "upper-case .MD", ("PI-TPL-DIRS",), _conventional(r"[^/]+\.MD$")),
    Cell("file", "dot file", ("PI-TPL-DOTFILES",), _conventional(r"\.[^/]*$")),
    Cell("file", "nested below the folder", ("PI-TPL-DIRS",), _conventional(r"[^/]+/.+\.md$")),
    Cell("file", "link to a file", ("PI-TPL-DIRS",),
         tree_hit(lambda p, e: bool(re.match(PROMPTS, p)) and bool(e.get("symlink")) and e["symlink"].endswith(".md"))),
    Cell("file", "broken link", ("PI-TPL-DIRS",),
         lambda input, tree: any(re.match(PROMPTS, p) and e.get("symlink")
                                 and not _link_target_exists(p, e["symlink"], tree) for p, e in entries(tree))),
    Cell("bytes", "invalid UTF-8", ("PI-TPL-FILE-BYTES",), tree_hit(lambda p, e: invalid_utf8(e))),
    Cell("bytes", "byte order mark", ("PI-TPL-NEWLINES",), _md(lambda t: t.startswith("\ufeff"))),
    Cell("bytes", "CRLF line ends", ("PI-TPL-NEWLINES",), _md(lambda t: "\r\n" in t)),
    Cell("bytes", "lone CR", ("PI-TPL-NEWLINES",), _md(lambda t: bool(re.search("\r(?!\n)", t)))),
    Cell("frontmatter", "none", ("PI-TPL-FRONTMATTER", "PI-TPL-BODY-TRIM"), _md(lambda t: not t.startswith("---"))),
    Cell("frontmatter", "closed", ("PI-TPL-FRONTMATTER",), _md(lambda t: bool(re.match(r"---.*\n---", t, re.S)))),
    Cell("frontmatter", "unterminated", ("PI-TPL-FRONTMATTER",),
         _md(lambda t: t.startswith("---") and not re.match(r"---.*\n---", t, re.S))),
    Cell("frontmatter", "empty", ("PI-TPL-FRONTMATTER",), _md(lambda t: bool(re.match(r"---\r?\n---", t)))),
    Cell("frontmatter", "text after the closing ---", ("PI-TPL-FRONTMATTER",),
         _md(lambda t: bool(re.match(r"---.*?\n---[^\r\n]+", t, re.S)))),
    Cell("frontmatter", "not valid YAML", ("PI-TPL-YAML-ERROR",), _md(lambda t: _yaml_invalid(t))),
    Cell("frontmatter", "duplicate key", ("PI-TPL-YAML-ERROR",),
         _md(lambda t: bool(re.match(r"---.*\n(\w[\w-]*):.*\n\1:.*\n---", t, re.S)))),
    Cell("frontmatter", "value the core schema keeps a string", ("PI-TPL-YAML-SCHEMA",),
         _md(lambda t: bool(re.match(r"---.*: *(\d{4}-\d\d-\d\d|\d+_\d+|yes|no|on|off|~)\s*\n.*---", t, re.S)))),
    Cell("frontmatter", "tab in the YAML", ("PI-TPL-YAML-SCHEMA",), _md(lambda t: bool(re.match(r"---[^\n]*\n[^-]*\t.*\n---", t, re.S)))),
    Cell("description", "non-empty string", ("PI-TPL-DESCRIPTION",), _non_empty_string("description")),
    Cell("description", "white space only (a string, kept)", ("PI-TPL-DESCRIPTION",), _blank_string("description")),
    Cell("description", "empty or null", ("PI-TPL-DESCRIPTION",),
         _md(lambda t: bool(re.match(r"---.*\ndescription: *(\"\"|''|null|~)?[ \t\r]*\n", t, re.S)))),
    Cell("description", "not a string", ("PI-TPL-DESCRIPTION",), _md(lambda t: bool(re.match(r"---.*\ndescription: *(\d|\[|\{|true|false)", t, re.S)))),
    Cell("description", "fallback of 59 code points", ("PI-TPL-DESCRIPTION-FALLBACK",), _fallback_length(lambda n: n == 59)),
    Cell("description", "fallback of 60 code points", ("PI-TPL-DESCRIPTION-FALLBACK",), _fallback_length(lambda n: n == 60)),
    Cell("description", "fallback of 61 code points", ("PI-TPL-DESCRIPTION-FALLBACK",), _fallback_length(lambda n: n == 61)),
    Cell("description", "fallback over 60 code points beyond ASCII", ("PI-TPL-DESCRIPTION-CHARS",),
         _md(lambda t: len(_first_line(t)) > 60 and not _first_line(t)[:61].isascii())),
    Cell("description", "blank lines before the first line", ("PI-TPL-DESCRIPTION-FALLBACK",),
         _md(lambda t: bool(re.match(r"\s*\n", _body(t))) and bool(_first_line(t)))),
    Cell("description", "no line that is not blank", ("PI-TPL-DESCRIPTION-FALLBACK",), _md(lambda t: not _first_line(t))),
    Cell("argument hint", "non-empty string", ("PI-TPL-ARGUMENT-HINT",), _non_empty_string("argument-hint")),
    Cell("argument hint", "white space only (a string, kept)", ("PI-TPL-ARGUMENT-HINT",), _blank_string("argument-hint")),
    Cell("argument hint", "not a non-empty string", ("PI-TPL-ARGUMENT-HINT",),
         _md(lambda t: bool(re.match(r"---.*\nargument-hint: *(\"\"|''|null|\d|\[|\n)", t, re.S)))),
    *_text_field_cells("description", "description", "PI-TPL-DESCRIPTION"),
    *_text_field_cells("argument hint", "argument-hint", "PI-TPL-ARGUMENT-HINT"),
    Cell("body", "whitespace around the body with frontmatter", ("PI-TPL-BODY-TRIM",),
         _md(lambda t: bool(re.match(r"---.*?\n---[^\n]*\n", t, re.S)) and _body(t) != _body(t).strip() and bool(_body(t).strip()))),
    Cell("body", "whitespace around the body without frontmatter", ("PI-TPL-BODY-TRIM",),
         _md(lambda t: not t.startswith("---") and t != t.strip() and bool(t.strip()))),
    Cell("trust", "trusted project with templates", ("PI-TPL-TRUST", "PI-TPL-PRECEDENCE"),
         lambda input, tree: input.get("projectTrusted") is True and file_hit(r"^project/\.pi/prompts/")(input, tree)),
    Cell("trust", "untrusted project with templates", ("PI-TPL-TRUST",),
         lambda input, tree: input.get("projectTrusted") is not True and file_hit(r"^project/\.pi/prompts/")(input, tree)),
    *case_pair_cells(("PI-TPL-ORDER", "PI-TPL-DUPLICATE"), _file_names),
    Cell("names", "one name in two folders", ("PI-TPL-DUPLICATE", "PI-TPL-PRECEDENCE"),
         lambda input, tree: len(_file_names(input, tree)) > len(set(_file_names(input, tree)))),
    Cell("names", "names beyond ASCII in one folder", ("PI-TPL-ORDER",),
         lambda input, tree: any(not n.isascii() for n in _file_names(input, tree)) and len(_file_names(input, tree)) > 1),
    Cell("explicit path", "absent", ("PI-TPL-EXPLICIT-PATHS",), absent("paths")),
    Cell("explicit path", "a folder", ("PI-TPL-EXPLICIT-PATHS",),
         lambda input, tree: any(not p.endswith(".md") and _in_tree(p, tree) and not _is_file(p, tree) for p in input.get("paths") or [])),
    Cell("explicit path", "a .md file", ("PI-TPL-EXPLICIT-PATHS",), lambda input, tree: any(p.endswith(".md") and _in_tree(p, tree) for p in input.get("paths") or [])),
    Cell("explicit path", "a file not ending in .md", ("PI-TPL-EXPLICIT-PATHS",),
         lambda input, tree: any(not p.endswith(".md") and _is_file(p, tree) for p in input.get("paths") or [])),
    Cell("explicit path", "missing", ("PI-TPL-EXPLICIT-MISSING",), lambda input, tree: any(not _in_tree(p, tree) for p in input.get("paths") or [])),
    Cell("explicit path", "missing one named twice", ("PI-TPL-EXPLICIT-MISSING-ONCE",),
         lambda input, tree: _twice([p for p in input.get("paths") or [] if not _in_tree(p, tree)])),
    Cell("explicit path", "a file named twice", ("PI-TPL-EXPLICIT-ORDER",),
         lambda input, tree: _twice([p for p in input.get("paths") or [] if _in_tree(p, tree)])
         or any(p.endswith(".md") and q != p and p.removeprefix("./").startswith(q.removeprefix("./").rstrip("/") + "/")
                for p in input.get("paths") or [] for q in input.get("paths") or [])),
    Cell("explicit path", "a file named twice, once through ..", ("PI-TPL-EXPLICIT-ORDER",),
         lambda input, tree: _twice_through_dotdot([p for p in input.get("paths") or [] if _in_tree(p, tree)])),
    Cell("explicit path", "a missing path named twice, once through ..", ("PI-TPL-EXPLICIT-MISSING-ONCE",),
         lambda input, tree: _twice_through_dotdot([p for p in input.get("paths") or [] if not _in_tree(p, tree)])),
    Cell("explicit path", "with ./, .. or a trailing /", ("PI-TPL-EXPLICIT-PATHS", "PI-TPL-EXPLICIT-MISSING-ONCE"),
         _paths(lambda ps: any(p.startswith("./") or ".." in p or p.endswith("/") for p in ps))),
    Cell("default folders", "switched off", ("PI-TPL-DEFAULTS-OFF",), field_hit("defaultFolders", lambda v: v is False)),
    Cell("settings prompts", "a folder", ("PI-TPL-SETTINGS-PROMPTS",), _lists(lambda l: any(not e[:1] in "!+-" and "*" not in e and not e.endswith(".md") for e in l))),
    Cell("settings prompts", "a glob", ("PI-TPL-SETTINGS-PROMPTS",), _lists(lambda l: any("*" in e for e in l))),
    Cell("settings prompts", "! entry", ("PI-TPL-SETTINGS-PROMPTS",), _lists(lambda l: any(e.startswith("!") for e in l))),
    Cell("settings prompts", "+ entry", ("PI-TPL-SETTINGS-PROMPTS",), _lists(lambda l: any(e.startswith("+") for e in l))),
    Cell("settings prompts", "- entry", ("PI-TPL-SETTINGS-PROMPTS",), _lists(lambda l: any(e.startswith("-") for e in l))),
    Cell("settings prompts", "empty list", ("PI-TPL-SETTINGS-PROMPTS",),
         lambda input, tree: any(input.get(k) == [] for k in ("personalPrompts", "projectPrompts"))),
    *character_cells(("PI-TPL-NAME", "PI-TPL-DESCRIPTION-CHARS"), tree_texts),
]
"""The classes of ``pi.load-templates``: every kind of folder entry, the bytes and line ends,
every frontmatter form and value, the fallback description around its 60-code-point limit,
trust, duplicate names, every explicit path form and the settings lists' entry forms."""


def _twice(paths: list[str]) -> bool:
    norm = [p.removeprefix("./").rstrip("/") for p in paths]
    return len(norm) > len(set(norm))


def _twice_through_dotdot(paths: list[str]) -> bool:
    """Two of ``paths`` name one place once ``..`` is folded, though they differ without folding it."""
    folded = [posixpath.normpath(p) for p in paths]
    return any(folded[m] == folded[n] and ".." in paths[m].split("/") + paths[n].split("/")
               for m in range(len(paths)) for n in range(m))


def _is_file(path: str, tree: dict | None) -> bool:
    path = posixpath.normpath("project/" + path)
    return any(p == path and not e.get("dir") for p, e in entries(tree))


def _link_target_exists(path: str, target: str, tree: dict | None) -> bool:
    where = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    return any(p == where or p.startswith(where + "/") for p, _ in entries(tree))


def _yaml_invalid(text: str) -> bool:
    """Whether a file's frontmatter is not valid YAML (by the safe loader, duplicates included)."""
    m = re.match(r"---(.*?)\n---", text.replace("\r\n", "\n"), re.S)
    if not m:
        return False
    from ruamel.yaml import YAML

    try:
        YAML(typ="safe", pure=True).load(m.group(1))
    except Exception:  # noqa: BLE001  (any YAML error is the class)
        return True
    return False


PARTITIONS: dict[str, list[Cell]] = {
    "pi.expand-input": EXPAND_INPUT,
    "pi.load-templates": LOAD_TEMPLATES,
    "pi.parse-args": PARSE_ARGS,
    "pi.substitute-args": SUBSTITUTE_ARGS,
}
