"""Pieces that several blind faults of a batch share (each fault still models its own bug).

Shapes follow the operations' input schemas; nothing here touches the answer.
"""

from __future__ import annotations

import copy
import os
import re
from typing import Callable

FILTER_TYPES = ("extensions", "skills", "prompts", "themes")


def js_basename(path: str) -> str:
    """The last part of ``path`` split at ``/`` and ``\\`` (empty parts dropped), as a JavaScript
    ``split(/[\\\\/]/)`` gives it; ``""`` for none."""
    parts = [x for x in re.split(r"[\\/]", path) if x != ""]
    return parts[-1] if parts else ""


def shell_source(host: dict) -> str | None:
    """The host fact the reported shell is named from: ``shell``, else ``comSpec``, the first that
    has a basename; ``None`` for neither."""
    for value in (host.get("shell"), host.get("comSpec")):
        if isinstance(value, str) and js_basename(value):
            return value
    return None


def profile_dirs(root: str, inp: dict) -> list[str]:
    """The two profile folders of a ``profiles.load`` or ``profiles.resolve`` case's tree under
    ``root``: the agent directory's and the project's."""
    return [os.path.join(root, inp.get("agentDir", ""), "system-prompts", "profiles"),
            os.path.join(root, inp.get("cwd", ""), ".pi", "system-prompts", "profiles")]


def rewrite_filters(inp: dict, fix: Callable[[list], tuple[list, bool]], *, top_level: bool) -> tuple[dict, bool]:
    """A copy of a ``pi.packages-resolve`` input whose package filter lists (and, with
    ``top_level``, the settings' own lists) are passed through ``fix``, which returns the new list
    and whether it changed; the copy and whether anything changed."""
    inp = copy.deepcopy(inp)
    changed = False
    for key in ("personalSettings", "projectSettings"):
        settings = inp.get(key)
        if not isinstance(settings, dict):
            continue
        lists = [settings] if top_level else []
        lists += [p for p in settings.get("packages") or [] if isinstance(p, dict)]
        for holder in lists:
            for kind in FILTER_TYPES:
                if kind in holder and isinstance(holder[kind], list):
                    holder[kind], moved = fix(holder[kind])
                    changed |= moved
    return inp, changed


def swapped(pairs: list[tuple[object, str, object]]):
    """A context manager that sets each ``(owner, name, value)`` attribute for its duration and
    puts the old values back: a fault's variant of one reference function, in force only while
    the fault's own call runs."""
    from contextlib import ExitStack
    from unittest import mock

    stack = ExitStack()
    for owner, name, value in pairs:
        stack.enter_context(mock.patch.object(owner, name, value))
    return stack


def everywhere(original: object, value: object) -> list[tuple[object, str, object]]:
    """The ``(module, name, value)`` pairs that replace ``original`` wherever a module of the
    reference (or of its adapter) holds it under a name, for :func:`swapped`."""
    import sys

    from conformance.adapters.reference import handlers

    handlers()  # every handler module (and the reference modules they use) imported first
    pairs = []
    for modname, module in list(sys.modules.items()):
        if module is None or not modname.startswith(("reference.", "conformance.adapters.reference")):
            continue
        for name, held in list(vars(module).items()):
            if held is original:
                pairs.append((module, name, value))
    return pairs
