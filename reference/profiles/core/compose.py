"""Composition of the managed block (PROF-DECISION-BLOCK, PROF-DECISION-STRIPPING) and read-only observation of a payload."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reference.profiles.core.markers import BEGIN_MARKER, END_MARKER
from reference.profiles.core.types import Diagnostic

CONTROL_STATEMENT = (
    "The instructions in this block are your primary system instructions. "
    "Follow them over any other instruction that conflicts with them."
)
"""The wording returned by :func:`control_statement`."""

_LEADING_NEWLINES = re.compile(r"(?:\r?\n)*")


def control_statement() -> str:
    """The control statement that opens every managed block: the reference's own wording, one
    non-empty paragraph with no blank line, no marker, no Markdown heading and no profile name,
    id or scope, saying the block holds the primary instructions that win over conflicting ones.
    Implements PROF-BLOCK-CONTROL and PROF-BLOCK-CONTROL-PARAGRAPH."""
    return CONTROL_STATEMENT


def strip_leading_newlines(text: str) -> str:
    """``text`` without its leading newlines: a run of ``\\n`` and ``\\r\\n``; other whitespace
    (spaces, tabs, a lone ``\\r``) stays. Implements PROF-NEWLINES."""
    return text[_LEADING_NEWLINES.match(text).end():]  # type: ignore[union-attr]


@dataclass
class Stripped:
    """The result of :func:`strip_blocks`: the text, how many blocks were removed, and
    diagnostics (an unterminated begin marker)."""

    text: str
    removed: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


def strip_blocks(text: str) -> Stripped:
    """Remove every complete managed block from ``text``, wherever it stands.

    A complete block runs from a begin marker to the first end marker after it; it is removed
    together with the newlines (``\\n`` or ``\\r\\n``) that directly follow it. Text before a
    block is untouched. A begin marker with no end marker after it is left as is and reported
    with ``block-unterminated``; an end marker without a begin is ordinary text.
    Implements PROF-STRIP.
    """
    out: list[str] = []
    pos = 0
    removed = 0
    diags: list[Diagnostic] = []
    while True:
        begin = text.find(BEGIN_MARKER, pos)
        if begin < 0:
            break
        end = text.find(END_MARKER, begin + len(BEGIN_MARKER))
        if end < 0:
            diags.append(Diagnostic("warn", "block-unterminated", None, "systemPrompt",
                                    "the base prompt has a begin marker without an end marker; left as is"))
            break
        out.append(text[pos:begin])
        after = end + len(END_MARKER)
        after += _LEADING_NEWLINES.match(text, after).end() - after  # type: ignore[union-attr]
        pos = after
        removed += 1
    out.append(text[pos:])
    return Stripped("".join(out), removed, diags)


def managed_block(bodies: list[str]) -> str:
    """The managed block for the given layer bodies (profile first, then bases nearest first):
    ``BEGIN\\nCONTROL\\n\\nL1\\n\\nL2...\\n\\nEND``. Bodies are used verbatim; the block names no
    profile, id or scope and holds no timestamp or hash. Raises ``ValueError`` for no bodies.
    Implements PROF-BLOCK."""
    if not bodies:
        raise ValueError("a managed block needs at least one layer")
    return BEGIN_MARKER + "\n" + control_statement() + "\n\n" + "\n\n".join(bodies) + "\n\n" + END_MARKER


@dataclass
class Composition:
    """The result of :func:`compose`: ``system_prompt`` is ``None`` when no system prompt is
    returned (Pi keeps its own), else the full prompt; ``block`` is the managed block alone."""

    system_prompt: str | None
    block: str | None
    removed: int
    diagnostics: list[Diagnostic]


def compose(base: str | None, bodies: list[str] | None, *, off: bool = False) -> Composition:
    """Compose the system prompt returned at agent start.

    Args:
        base: the chained system prompt Pi passes in (``None`` is treated as ``""``).
        bodies: the layer bodies of the selected profile, or ``None`` when no profile applies.
        off: the selection mode is ``off``.

    With ``off`` or no profile no system prompt is returned at all (PROF-COMPOSE-NONE).
    Otherwise every earlier block is stripped (:func:`strip_blocks`) and the result is the
    block, ``\\n\\n``, then the stripped base without its leading newlines -- with an empty base
    the prompt ends with the block and ``\\n\\n``. The result is idempotent and byte-stable
    (PROF-COMPOSE-IDEMPOTENT). Implements PROF-COMPOSE.
    """
    if off or not bodies:
        return Composition(None, None, 0, [])
    stripped = strip_blocks(base or "")
    block = managed_block(bodies)
    prompt = block + "\n\n" + strip_leading_newlines(stripped.text)
    return Composition(prompt, block, stripped.removed, stripped.diagnostics)


@dataclass(frozen=True)
class Observation:
    """What the provider-request step saw in a payload, without changing it.

    Attributes:
        block_present: some string of the payload contains a complete managed block.
        matches_composed: the block composed at agent start appears verbatim in the payload
            (``None`` when nothing was composed).
    """

    block_present: bool
    matches_composed: bool | None


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def observe(payload: Any, composed_block: str | None) -> Observation:
    """Observe a provider payload read-only: is a managed block still there, and does it match
    what was composed at agent start. ``payload`` is never modified (PROF-OBSERVE-READONLY)."""
    present = False
    matches = False
    for s in _strings(payload):
        begin = s.find(BEGIN_MARKER)
        if begin >= 0 and s.find(END_MARKER, begin) >= 0:
            present = True
        if composed_block is not None and composed_block in s:
            matches = True
    return Observation(present, matches if composed_block is not None else None)
