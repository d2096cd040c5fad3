"""The input classes of the profiles area's managed block (PROF-DECISION-BLOCK, -STRIPPING):
``profiles.compose`` (layers over a base prompt, in each mode, composed again) and
``profiles.strip`` (removing earlier blocks)."""

from __future__ import annotations

import re
from typing import Callable

from conformance.strategies.partitions.cells import Cell, Hit, character_cells
from conformance.strategies.partitions.profiles import BEGIN, END

_BLOCK = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)


def blocks(text: str) -> list[re.Match]:
    """The complete blocks of ``text``: a begin marker and the first end marker after it (PROF-STRIP)."""
    return list(_BLOCK.finditer(text))


def _prompt_classes(key: str, clauses: tuple[str, ...]) -> list[Cell]:
    """The classes of a prompt text under ``key`` that stripping turns on: blocks in each place,
    what follows a block, unterminated and stray markers, near misses, emptiness."""
    def text(input: dict) -> str:
        value = input.get(key)
        return value if isinstance(value, str) else ""

    def on(test: Callable[[str], bool]) -> Hit:
        return lambda input, tree: test(text(input))

    def after(test: Callable[[str], bool]) -> Hit:
        return on(lambda t: any(test(t[m.end():m.end() + 2]) for m in blocks(t)))

    strip = ("PROF-STRIP",)
    return [
        Cell(key, "no marker", clauses, on(lambda t: t != "" and BEGIN not in t and END not in t)),
        Cell(key, "empty", clauses, lambda input, tree: input.get(key) == ""),
        Cell(key, "a block at the start", strip, on(lambda t: t.startswith(BEGIN) and bool(blocks(t)))),
        Cell(key, "a block in the middle", strip,
             on(lambda t: any(0 < m.start() and m.end() < len(t.rstrip("\r\n")) for m in blocks(t)))),
        Cell(key, "a block at the end", strip, on(lambda t: any(t[m.end():].strip("\r\n") == "" and m.start() > 0 for m in blocks(t)))),
        Cell(key, "two blocks", strip, on(lambda t: len(blocks(t)) >= 2)),
        Cell(key, "a block followed by \\n\\n", ("PROF-STRIP", "PROF-NEWLINES"), after(lambda s: s == "\n\n")),
        Cell(key, "a block followed by \\r\\n", ("PROF-STRIP", "PROF-NEWLINES"), after(lambda s: s.startswith("\r\n"))),
        Cell(key, "a block followed by other white space", ("PROF-NEWLINES",), after(lambda s: s[:1] in (" ", "\t"))),
        Cell(key, "a begin inside a block", strip, on(lambda t: any(BEGIN in m.group()[len(BEGIN):] for m in blocks(t)))),
        Cell(key, "an unterminated begin", strip, on(lambda t: BEGIN in _BLOCK.sub("", t))),
        Cell(key, "an end without a begin", strip, on(lambda t: END in _BLOCK.sub("", t))),
        Cell(key, "a near miss of a marker", strip,
             on(lambda t: "system-instructions" in _BLOCK.sub("", t).replace(BEGIN, "").replace(END, "").lower())),
        Cell(key, "leading newlines", ("PROF-NEWLINES",), on(lambda t: t[:1] == "\n" or t[:2] == "\r\n")),
        Cell(key, "leading white space other than newlines", ("PROF-NEWLINES",), on(lambda t: t[:1] in (" ", "\t"))),
        Cell(key, "a lone \\r among the leading newlines", ("PROF-NEWLINES",), on(_lone_cr_leading)),
        Cell(key, "a block followed by a lone \\r among newlines", ("PROF-NEWLINES",),
             on(lambda t: any(_lone_cr_leading(t[m.end():]) for m in blocks(t)))),
    ]


def _lone_cr_leading(text: str) -> bool:
    """Whether the run of ``\\r`` and ``\\n`` a text starts with holds a ``\\r`` not followed by
    ``\\n``: a character PROF-NEWLINES keeps, though it looks like part of a newline."""
    run = re.match(r"[\r\n]*", text).group()  # type: ignore[union-attr]
    return bool(re.search(r"\r(?!\n)", run))


def _layers(test: Callable[[list], bool]) -> Hit:
    return lambda input, tree: isinstance(input.get("layers"), list) and test(input["layers"])


COMPOSE = [
    *[Cell("mode", mode, ("PROF-COMPOSE-NONE",) if mode == "off" else ("PROF-COMPOSE",),
           (lambda input, tree: "mode" not in input) if mode == "absent (auto)" else
           (lambda input, tree, m=mode: input.get("mode") == m))
      for mode in ("auto", "manual", "off", "absent (auto)")],
    Cell("layers", "null (no profile)", ("PROF-COMPOSE-NONE",), lambda input, tree: input.get("layers") is None),
    Cell("layers", "empty", ("PROF-COMPOSE-NONE",), _layers(lambda l: l == [])),
    Cell("layers", "one", ("PROF-BLOCK",), _layers(lambda l: len(l) == 1)),
    Cell("layers", "several", ("PROF-BLOCK",), _layers(lambda l: len(l) >= 2)),
    Cell("layers", "an empty body", ("PROF-BLOCK",), _layers(lambda l: "" in l)),
    Cell("layers", "a body with trailing newlines", ("PROF-BLOCK",), _layers(lambda l: any(b.endswith("\n") for b in l))),
    Cell("layers", "a body with CRLF", ("PROF-BLOCK",), _layers(lambda l: any("\r\n" in b for b in l))),
    Cell("layers", "a body with leading white space", ("PROF-BLOCK",), _layers(lambda l: any(b[:1].isspace() for b in l if b))),
    Cell("layers", "a body holding a Markdown heading", ("PROF-BLOCK-CONTROL",), _layers(lambda l: any(re.search(r"(^|\n)#", b) for b in l))),
    Cell("systemPrompt", "null", ("PROF-COMPOSE",), lambda input, tree: input.get("systemPrompt") is None),
    *_prompt_classes("systemPrompt", ("PROF-COMPOSE",)),
    Cell("times", "once", ("PROF-COMPOSE",), lambda input, tree: input.get("times", 1) == 1),
    Cell("times", "again", ("PROF-COMPOSE-IDEMPOTENT",), lambda input, tree: input.get("times", 1) >= 2),
    Cell("times", "again, over an unterminated begin", ("PROF-COMPOSE-IDEMPOTENT", "PROF-STRIP"),
         lambda input, tree: input.get("times", 1) >= 2 and BEGIN in _BLOCK.sub("", input.get("systemPrompt") or "")),
    *character_cells(("PROF-BLOCK",)),
]
"""The classes of ``profiles.compose``: each mode, no layers, one, several, bodies empty, with
trailing newlines, CRLF, leading white space or a heading; the base prompt null, empty and in every
form stripping turns on; composed once and again."""

STRIP = [*_prompt_classes("text", ("PROF-STRIP",)), *character_cells(("PROF-STRIP",))]
"""The classes of ``profiles.strip``: the text's blocks in every place, what follows them,
nested, unterminated and stray markers, near misses, leading newlines, emptiness, characters."""


PARTITIONS: dict[str, list[Cell]] = {
    "profiles.compose": COMPOSE,
    "profiles.strip": STRIP,
}
