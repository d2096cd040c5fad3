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


def split_args(text: str, *, escapable: str | None = None, take_back: bool = True,
               escape_outside: bool = False) -> list[str]:
    """Pi's argument splitting (PI-TPL-ARGS-*) with three knobs a fault may turn: ``escapable``, the
    characters a backslash inside a quote gives (``None``: the opening quote's only), and
    ``take_back``, whether a quote still open at the end is taken back and the rest read again
    (``False``: the quoted text runs to the end as one argument), and ``escape_outside``, whether
    a backslash outside quotes gives the next character as a POSIX shell does (``False``: it is text)."""
    from reference.text import JS_WHITESPACE

    args: list[str] = []
    current: list[str] = []
    started, quote, quote_at = False, None, 0
    last, i = len(text) - 1, 0
    while i <= last:
        ch = text[i]
        if quote is not None:
            if ch == "\\" and i < last and text[i + 1] in (escapable or quote):
                current.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = None
            else:
                current.append(ch)
        elif escape_outside and ch == "\\" and i < last:
            current.append(text[i + 1])
            started = True
            i += 1
        elif ch in "\"'" and not started:
            quote, quote_at, started = ch, i, True
        elif ch in JS_WHITESPACE:
            if started:
                args.append("".join(current))
                current, started = [], False
        else:
            current.append(ch)
            started = True
        if take_back and quote is not None and i == last:
            current, quote, i = [text[quote_at]], None, quote_at
        i += 1
    if started:
        args.append("".join(current))
    return args


def substitute(content: str, args: list[str], *, all_default_when: Callable[[list[str], str], bool] | None = None,
               slice_length: Callable[[str | None], int | None] | None = None) -> str:
    """Pi's placeholder substitution (PI-TPL-SUB-*) with two knobs a fault may turn:
    ``all_default_when(args, joined)``, whether ``${@:-default}`` gives its default (``None``: when
    the joined text is empty), and ``slice_length(L)``, the count ``${@:N:L}`` takes (``None`` from
    it: every argument from N on; ``None`` as the knob: L as written)."""
    from reference.pi.core import templates

    joined = " ".join(args)

    def replace(match: re.Match[str]) -> str:
        target, default, start, length, simple = match.groups()
        if target is not None:
            if target in ("@", "ARGUMENTS"):
                use_default = all_default_when(args, joined) if all_default_when else not joined
                return default if use_default else joined
            value = templates._positional(args, target)
            return value if value else default
        if start is not None:
            begin = max(int(start) - 1, 0)
            count = slice_length(length) if slice_length else (None if length is None else int(length))
            return " ".join(args[begin:] if count is None else args[begin: begin + count])
        if simple in ("@", "ARGUMENTS"):
            return joined
        return templates._positional(args, simple) or ""

    return templates._PLACEHOLDER.sub(replace, content)
