"""Input partitions (category-partition): per operation, the input dimensions its clauses turn
on and the classes of each, with a predicate that says whether an input hits a class.

Declared from the clause statements of the spec catalogue, not from the cases; each class
names the clauses it comes from. ``pi-conformance coverage --cells`` reports which suite cases
and which generated examples (:mod:`conformance.diff`'s, at a budget) hit each class, and the
tests fail while a class is hit by none of either (``tests/test_partitions.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

Hit = Callable[[dict, "dict | None"], bool]
"""A class's predicate: ``hit(input, tree)`` (the tree a scenario ``tree`` mapping or ``None``)."""


@dataclass(frozen=True)
class Cell:
    """One class of one input dimension of an operation.

    Attributes:
        dimension: what varies (``placeholder form``, ``characters``, ...). name: the class.
        clauses: the clause ids whose statements give the class. hit: its predicate.
    """

    dimension: str
    name: str
    clauses: tuple[str, ...]
    hit: Hit

    @property
    def label(self) -> str:
        """``dimension: name``, how reports name the class."""
        return f"{self.dimension}: {self.name}"


def _texts(value: Any) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in [k, *_texts(v)]]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _chars(test: Callable[[str], bool]) -> Hit:
    return lambda input, tree: any(test(c) for t in _texts(input) for c in t)


def character_cells(clauses: tuple[str, ...]) -> list[Cell]:
    """The character classes of an operation's texts: ASCII, other Basic Multilingual Plane,
    beyond it, combining marks."""
    import unicodedata

    return [
        Cell("characters", "ASCII only", clauses,
             lambda input, tree: all(t.isascii() for t in _texts(input)) and any(_texts(input))),
        Cell("characters", "other BMP", clauses, _chars(lambda c: 0x80 <= ord(c) <= 0xFFFF and not unicodedata.combining(c))),
        Cell("characters", "beyond BMP", clauses, _chars(lambda c: ord(c) > 0xFFFF)),
        Cell("characters", "combining mark", clauses, _chars(lambda c: unicodedata.combining(c) > 0)),
    ]


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


PARTITIONS: dict[str, list[Cell]] = {
    "pi.parse-args": PARSE_ARGS,
    "pi.substitute-args": SUBSTITUTE_ARGS,
}
"""Every operation's declared classes, by operation name."""
