"""Command-line values shared by ``pi-conformance`` and the pytest plugin."""

from __future__ import annotations

import argparse
import math
from fnmatch import fnmatchcase
from typing import Iterable

MAX_TIMEOUT = 3600.0
"""The longest per-request timeout, in seconds, that any option accepts."""


def timeout_seconds(text: str) -> float:
    """A per-request timeout in seconds: a finite number more than 0 and at most
    :data:`MAX_TIMEOUT`.

    Raises ``argparse.ArgumentTypeError`` (which argparse and pytest both report as a usage
    error naming the option) for anything else: ``0``, negative numbers, ``nan``, ``inf``, text.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"{text!r}: the timeout must be more than 0 and at most {MAX_TIMEOUT:g} seconds")
    return value


MAX_EXAMPLES = 10_000
"""The most examples per invariant or per operation that ``invariants`` and ``diff`` accept: a
thorough run takes a few hundred; a mistyped ``--examples 10000000`` would run for days."""


def example_count(value: int, source: str = "--examples") -> int:
    """``value`` as a number of examples per invariant or operation: from 1 to
    :data:`MAX_EXAMPLES`. Raises ``ValueError`` naming ``source`` (the option or variable the
    value came from) otherwise."""
    if value < 1:
        raise ValueError(f"{source}: the number of examples must be at least 1, got {value}")
    if value > MAX_EXAMPLES:
        raise ValueError(f"{source}: the number of examples must be at most {MAX_EXAMPLES:,}, got {value:,}")
    return value


class Once(argparse._StoreAction):
    """``action=Once``: an option that takes one value and refuses a second (``--report-md a.md
    --report-md b.md`` kept ``b.md`` without a word, so the report the user looked for in
    ``a.md`` was never written). Raises ``argparse.ArgumentError`` (a usage error, exit 2,
    naming the option and both values)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        given = getattr(namespace, "_given_once", set())
        if self.dest in given:
            raise argparse.ArgumentError(self, f"given twice ({getattr(namespace, self.dest)}, then {values}); "
                                               "give it once")
        namespace._given_once = given | {self.dest}
        setattr(namespace, self.dest, values)


def _not_blank(text: str, advice: str) -> str:
    """``text``, or ``argparse.ArgumentTypeError(advice)`` when it is empty or blank."""
    if not text.strip():
        raise argparse.ArgumentTypeError(advice)
    return text


def path_argument(text: str) -> str:
    """A file or folder argument (``--out``, ``--expectations``, a report to read): any text but an
    empty or blank one, which would name the working folder (``docs --out ''`` wrote its pages
    there) or be taken as no option at all (``--expectations ''`` judged without the file).

    Raises ``argparse.ArgumentTypeError`` (a usage error naming the option) for such a value.
    """
    return _not_blank(text, "give a path (an empty one names nothing)")


def pattern_argument(text: str) -> str:
    """A name or glob that selects (``--case``, ``--require-op``, ``--fault``, ``--invariant``,
    ``--op``): any text but an empty or blank one, which selects nothing and would read as a
    selection that matched nothing.

    Raises ``argparse.ArgumentTypeError`` (a usage error naming the option) for such a value.
    """
    return _not_blank(text, "give a name or glob (an empty one selects nothing)")


DEFAULT_FAULTS_PACKAGE = "conformance.faults.seeded"
"""The seeded faults' package when ``--faults`` names none (shipped with the kit)."""


def module_argument(text: str) -> str:
    """A Python module argument (``--faults MODULE``): any text but an empty or blank one, which
    ``coverage --faults ''`` took for the option given without a module (the default package).

    Raises ``argparse.ArgumentTypeError`` (a usage error naming the option) for such a value.
    """
    return _not_blank(text, "give a module name (an empty one names none)")


def folder_argument(text: str) -> str:
    """A folder argument the kit writes into (``--out DIR``): a :func:`path_argument` that is not
    an existing file (``docs --out FILE`` failed with the system's "File exists").

    Raises ``argparse.ArgumentTypeError`` (a usage error naming the option) for such a value.
    """
    import os

    path_argument(text)
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a file, not a folder")
    return text


def edition_name(text: str) -> str:
    """The ``--edition`` argument: a known edition's name (see :mod:`conformance.corpus.editions`).
    Raises ``argparse.ArgumentTypeError`` naming the editions for any other text."""
    from conformance.corpus.editions import get

    try:
        return get(text).name
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_edition_argument(parser: argparse.ArgumentParser, default: str | None, default_help: str) -> None:
    """Add ``--edition NAME`` to ``parser``: a known edition's name (:func:`edition_name`),
    ``default`` when not given (``None``: the command's own meaning, e.g. every edition), named
    in the help as ``default_help``."""
    parser.add_argument("--edition", type=edition_name, default=default, metavar="NAME", action=_EditionGiven,
                        help=f"the edition judged (see `pi-conformance editions`; default {default_help})")


class _EditionGiven(argparse.Action):
    """Store ``--edition`` and note that it was given (``edition_given``), so that a mismatch with
    ``--area`` is refused only for an edition the user named
    (:meth:`conformance.session.Session.check_edition_areas`)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, values)
        namespace.edition_given = True


def required_operations(every: bool, globs: list[str] | None,
                        known: Iterable[str] = ()) -> list[str] | None:
    """The operations an implementation must provide, from ``--fail-on-unsupported`` (``every``)
    and ``--require-op GLOB`` (repeatable): ``["*"]``, the globs, or ``None`` for none.

    Raises ``ValueError`` naming a glob that matches none of the ``known`` operation names (a
    misspelt requirement would otherwise never be enforced).
    """
    if every:
        return ["*"]
    names = list(known)
    for glob in globs or []:
        if names and not any(fnmatchcase(name, glob) for name in names):
            raise ValueError(f"--require-op {glob!r} matches no operation of the suite")
    return list(globs) if globs else None


def add_generation_arguments(parser: argparse.ArgumentParser, default_timeout: float) -> None:
    """``--seed N`` (default: derandomized) and ``--timeout SECONDS`` (per request, checked by
    :func:`timeout_seconds`), as the commands that generate examples (``diff``, ``invariants``)
    take them."""
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="seed the generator (default: derandomized, the same examples every run)")
    parser.add_argument("--timeout", type=timeout_seconds, default=default_timeout, metavar="SECONDS",
                        help="per-request timeout, in process too (the start has its own 30 s, see PROTOCOL.md)")
