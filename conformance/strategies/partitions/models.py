"""The input classes of the ``models.json`` operations (PI-DECISION-MODELS): so far
``pi.models-value``, the value forms of PI-MODELS-VALUE-*."""

from __future__ import annotations

import re
from typing import Callable

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
