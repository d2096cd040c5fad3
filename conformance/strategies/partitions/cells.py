"""The pieces input classes are declared with: :class:`Cell` and the predicates the area modules
of :mod:`conformance.strategies.partitions` build theirs from."""

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


def input_texts(input: dict, tree: "dict | None") -> list[str]:
    """The texts character classes look at by default: every string of the input."""
    return _texts(input)


def tree_texts(input: dict, tree: "dict | None") -> list[str]:
    """Every string of the input, and every path and file text of the tree."""
    return [*_texts(input), *(t for p, e in entries(tree) for t in (p, entry_text(e)))]


def character_cells(clauses: tuple[str, ...], texts: Callable[[dict, "dict | None"], list[str]] = input_texts
                    ) -> list[Cell]:
    """The character classes of an operation's texts (``texts(input, tree)``): ASCII, other
    Basic Multilingual Plane, beyond it, combining marks."""
    import unicodedata

    def chars(test: Callable[[str], bool]) -> Hit:
        return lambda input, tree: any(test(c) for t in texts(input, tree) for c in t)

    return [
        Cell("characters", "ASCII only", clauses,
             lambda input, tree: all(t.isascii() for t in texts(input, tree)) and any(texts(input, tree))),
        Cell("characters", "other BMP", clauses,
             chars(lambda c: 0x80 <= ord(c) <= 0xFFFF and not unicodedata.combining(c) and c != "\ufffd")),
        Cell("characters", "beyond BMP", clauses, chars(lambda c: ord(c) > 0xFFFF)),
        Cell("characters", "combining mark", clauses, chars(lambda c: unicodedata.combining(c) > 0)),
    ]


def case_pair_cells(clauses: tuple[str, ...], names: Callable[[dict, "dict | None"], list[str]]) -> list[Cell]:
    """The class of two names that differ only in case, among ``names(input, tree)``."""

    def hit(input: dict, tree: "dict | None") -> bool:
        found = [n for n in names(input, tree) if isinstance(n, str)]
        return any(a != b and a.casefold() == b.casefold() for a in found for b in found)

    return [Cell("names", "two differing only in case", clauses, hit)]


def entries(tree: "dict | None") -> list[tuple[str, dict]]:
    """A tree's entries as ``(path, entry)``, whether written as a scenario writes them
    (``{text: ...}``, ``{symlink: ...}``, ...) or as a strategy does (a string is a file's text)."""
    return [(path, {"text": e} if isinstance(e, str) else dict(e)) for path, e in (tree or {}).items()]


def entry_text(entry: dict) -> str:
    """A file entry's text (``base64`` decoded as UTF-8 with replacement), ``""`` for others."""
    import base64

    if entry.get("text") is not None:
        return entry["text"]
    if entry.get("base64") is not None:
        return base64.b64decode(entry["base64"]).decode("utf-8", "replace")
    return ""


def invalid_utf8(entry: dict) -> bool:
    """Whether a file entry's bytes are not valid UTF-8."""
    import base64

    if entry.get("base64") is None:
        return False
    try:
        base64.b64decode(entry["base64"]).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def tree_hit(test: Callable[[str, dict], bool]) -> Hit:
    """The class of trees with an entry ``(path, entry)`` that passes ``test``."""
    return lambda input, tree: any(test(p, e) for p, e in entries(tree))


def file_hit(pattern: str, test: Callable[[str], bool] = lambda text: True) -> Hit:
    """The class of trees with a file whose path matches ``pattern`` and whose text passes ``test``."""
    found = re.compile(pattern)
    return tree_hit(lambda p, e: "symlink" not in e and not e.get("dir") and bool(found.search(p))
                    and test(entry_text(e)))


def field_hit(key: str, test: Callable[[Any], bool]) -> Hit:
    """The class of inputs whose ``key`` (present) passes ``test``."""
    return lambda input, tree: key in input and test(input[key])


def absent(key: str) -> Hit:
    """The class of inputs without ``key``."""
    return lambda input, tree: key not in input


def any_of(*hits: Hit) -> Hit:
    """Hit by an input any of ``hits`` hits."""
    return lambda input, tree: any(h(input, tree) for h in hits)
