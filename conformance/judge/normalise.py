"""Declared normalisers: named functions, declared by the area modules of
:mod:`conformance.operations`, that make implementation-defined parts of an answer comparable."""

from __future__ import annotations

from typing import Any, Callable

Normaliser = Callable[[Any], Any]
_NORMALISERS: dict[str, Normaliser] = {}
_NEEDS_CASE: set[str] = set()


def normaliser(name: str, *, needs_case: bool = False) -> Callable[[Normaliser], Normaliser]:
    """Declare the decorated function as the normaliser ``name`` (``<area>.<what>``): called as
    ``fn(data)``, or ``fn(data, case)`` with ``needs_case`` (``case`` may be ``None``)."""

    def register(fn: Normaliser) -> Normaliser:
        if name in _NORMALISERS:
            raise ValueError(f"normaliser {name!r} declared twice")
        _NORMALISERS[name] = fn
        if needs_case:
            _NEEDS_CASE.add(name)
        return fn

    return register


def normalisers() -> dict[str, Normaliser]:
    """Every declared normaliser (operation modules are imported first, as they declare them)."""
    from conformance.operations import load_all

    load_all()
    return dict(_NORMALISERS)


def names() -> set[str]:
    """The name of every normaliser, declared or named by :mod:`conformance.operations.index`,
    without importing an operation module."""
    from conformance.operations.index import NORMALISERS

    return set(NORMALISERS) | set(_NORMALISERS)


def get(name: str) -> Normaliser:
    """The normaliser ``name``, importing only the operation module that declares it (every one
    for a name the index does not hold). Raises ``KeyError`` for an undeclared name."""
    if name not in _NORMALISERS:
        from conformance.operations import load_all, load_module
        from conformance.operations.index import NORMALISERS

        if name in NORMALISERS:
            load_module(NORMALISERS[name])
        if name not in _NORMALISERS:
            load_all()
    return _NORMALISERS[name]


ROOT_PLACEHOLDER = "<root>"
"""What :func:`replace_root` writes for a tree's root."""

_ROOT_OPENING = ROOT_PLACEHOLDER[:-1]  # "<root"
_ROOT_OPENING_ESCAPED = _ROOT_OPENING + "\\"  # "<root\\"


def escape_placeholder_text(text: str) -> str:
    """``text`` with every ``<root`` it holds written ``<root\\`` (a backslash added), so that
    no text of an answer's own reads as the placeholder: after :func:`replace_root`, ``<root``
    followed by ``>`` is always the tree's root and followed by a backslash always the answer's
    own text."""
    return text.replace(_ROOT_OPENING, _ROOT_OPENING_ESCAPED)


def replace_root(data: Any, roots: list[str]) -> Any:
    """``data`` with every occurrence of each path in ``roots`` inside strings (keys included)
    replaced by ``<root>``. Applied by the kit to every answer of a case that has a tree, and to
    the reference's answer before it is written as a golden.

    One-to-one: text an answer held already that would read as the placeholder (any ``<root``)
    is escaped first (:func:`escape_placeholder_text`), so an answer that writes ``<root>``
    itself in place of the tree's absolute path never equals a golden's ``<root>``."""
    roots = sorted({r for r in roots if r}, key=len, reverse=True)
    if not roots:
        return data

    def replaced(text: str, rest: list[str]) -> str:
        if not rest:
            return escape_placeholder_text(text)
        return ROOT_PLACEHOLDER.join(replaced(piece, rest[1:]) for piece in text.split(rest[0]))

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return replaced(value, roots)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items()}
        return value

    return walk(data)


def apply(names: list[str], data: Any, case: Any = None) -> Any:
    """Apply the named normalisers in order (a case's ``normalise:``, applied to both the golden
    and the answer before they are compared; goldens keep the reference's raw output); those declared with ``needs_case`` also get ``case``
    (anything with ``input`` and ``tree``, or ``None``). Raises ``KeyError`` for an undeclared
    name."""
    for name in names:
        fn = get(name)
        data = fn(data, case) if name in _NEEDS_CASE else fn(data)
    return data
