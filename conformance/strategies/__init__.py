"""Hypothesis strategies of operation inputs, per area: the examples ``(input, tree)`` that the
differential test (:mod:`conformance.diff`) and the invariants (:mod:`conformance.invariants`)
generate, and the frames ``diff`` sends after them (:func:`frames_for`: examples built on purpose
from combinations of an operation's declared input classes)."""

from __future__ import annotations

import atexit
import tempfile
from typing import Any, Callable

from conformance.output.removal import remove_tree
from conformance.strategies.registry import FRAMES, HAND_WRITTEN, Example, frames, strategy  # noqa: F401  (public names)


def _load() -> None:
    from conformance.strategies import (envelope, envelope_frames, messages, models, packages,  # noqa: F401
                                        pi, profiles, profiles_commands, profiles_commands_frames,
                                        profiles_frames)


def hand_written() -> dict[str, Callable[[], Any]]:
    """Every registered hand-written strategy by operation name."""
    _load()
    return dict(HAND_WRITTEN)


def frames_for(op: str) -> list[Example]:
    """The frames of ``op`` (see :func:`conformance.strategies.registry.frames`), ``[]`` when it
    has none."""
    _load()
    found = FRAMES.get(op)
    return found() if found is not None else []


def for_operation(op: str) -> tuple[Any, str]:
    """The strategy of ``op``'s examples and where it comes from: ``"hand-written"`` (registered by
    an area module with :func:`strategy`, reaching the operation's rules: placeholder forms and
    their near misses, quoting forms, the characters and limits the rules treat specially) or
    ``"fallback"`` (:func:`conformance.strategies.fallback.from_model`, generated from the input
    model's JSON schema). Raises ``KeyError`` for an unknown
    operation."""
    from conformance.operations import catalogue
    from conformance.strategies.fallback import from_model

    model = catalogue()[op].input
    found = hand_written().get(op)
    if found is not None:
        return found(), "hand-written"
    return from_model(model).map(lambda data: (data, None)), "fallback"


def keep_hypothesis_storage_out_of_the_working_folder() -> str:
    """Point hypothesis's storage at the kit's cache folder (``hypothesis`` beside the parse
    cache's ``yaml``, see :mod:`conformance.corpus.yamlcache`), or at a temporary folder removed at exit
    when the cache is off, and return it.

    ``diff`` and ``invariants`` run with hypothesis's example database off, but hypothesis still
    keeps what it gathers from the code under ``.hypothesis/`` in the working folder, which for an
    installed kit is the user's own project. Call it once, before the first search."""
    from hypothesis.configuration import set_hypothesis_home_dir

    from conformance.corpus.yamlcache import cache_dir

    root = cache_dir()
    if root is not None:
        home = str(root.parent / "hypothesis")
    else:
        home = tempfile.mkdtemp(prefix="pi-conformance-hypothesis-")
        atexit.register(remove_tree, home)
    set_hypothesis_home_dir(home)
    return home
