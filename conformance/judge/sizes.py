"""Size bounds of what the kit keeps of an answer: how much of a failing answer a report holds,
and how large an answer or golden may be for a line diff, so that a wrong answer of 50 MB costs a
run what one case costs. docs/running.md ("Size bounds") lists them with the answer's own."""

from __future__ import annotations

from typing import Any

from conformance.adapters.base import json_size

REPORTED_ANSWER_BYTES = 64 * 1024
"""The most of an answer a report keeps (its ``actual``, and what a run holds of it until then),
counted as :func:`~conformance.adapters.base.json_size` counts: three times the largest golden of
the suite. A larger answer is kept :func:`cut`."""

MAX_DIFF_BYTES = 128 * 1024
"""The largest golden or answer (as :func:`~conformance.adapters.base.json_size` counts) a line
diff is made of; past it the diff says where the two first differ instead
(:func:`too_large_to_diff`): writing 10 MB as YAML and diffing it took minutes."""

CUT = "[cut by pi-conformance: {} more {}]"
"""How a cut answer says what it lost: the end of a string (``characters``), the last item of a
list (``items``), the value of the key :data:`CUT_KEY` of an object (``keys``)."""

CUT_KEY = "\u2026"
"""The key (``…``) under which a cut object says how many of its keys were left out."""


def cut(value: Any, budget: int = REPORTED_ANSWER_BYTES) -> Any:
    """``value`` (JSON data, nested at most ``MAX_ANSWER_DEPTH`` deep) itself when its JSON is at
    most ``budget`` bytes, else a copy of about that size: strings, lists and objects cut where the
    budget ran out, each saying with :data:`CUT` how much it lost."""
    if json_size(value, budget) <= budget:
        return value
    left = [budget]

    def copy(item: Any) -> Any:
        if isinstance(item, str):
            if len(item) + 2 <= left[0]:
                left[0] -= len(item) + 2
                return item
            keep = max(left[0] - 2, 0)
            left[0] = 0
            return item[:keep] + CUT.format(f"{len(item) - keep:,}", "characters")
        if isinstance(item, list):
            out = []
            for i, child in enumerate(item):
                if left[0] <= 0:
                    out.append(CUT.format(f"{len(item) - i:,}", "items"))
                    break
                out.append(copy(child))
            return out
        if isinstance(item, dict):
            kept: dict = {}
            for i, (key, child) in enumerate(item.items()):
                if left[0] <= 0:
                    kept[CUT_KEY] = CUT.format(f"{len(item) - i:,}", "keys")
                    break
                left[0] -= len(key) + 4
                kept[key] = copy(child)
            return kept
        left[0] -= len(repr(item))
        return item

    return copy(value)


MAX_MESSAGE_CHARS = 20_000
"""The most of a case's message a run keeps (an exception's text, an adapter's ``errored``
message): as much as a diff shows (``conformance.judge.diffs.MAX_SHOWN_CHARS``)."""


def cut_text(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` itself when it is at most ``limit`` characters, else its first ``limit`` and
    :data:`CUT` saying how many more there were."""
    return text if len(text) <= limit else text[:limit] + CUT.format(f"{len(text) - limit:,}", "characters")


def too_large_to_diff(expected: Any, actual: Any) -> str | None:
    """``None`` when both (canonical JSON data) are within :data:`MAX_DIFF_BYTES`; else the text
    shown in place of their diff: which is past the bound, and the first place they differ
    (:func:`first_difference`)."""
    sizes = {"golden": json_size(expected, MAX_DIFF_BYTES), "answer": json_size(actual, MAX_DIFF_BYTES)}
    over = [f"the {name} is more than {MAX_DIFF_BYTES:,} bytes as JSON" for name, size in sizes.items()
            if size > MAX_DIFF_BYTES]
    if not over:
        return None
    where, golden_part, answer_part = first_difference(expected, actual)
    return (f"(no line diff: {' and '.join(over)}, past the diff bound)\n"
            f"first difference at {where}:\n  golden: {golden_part}\n  answer: {answer_part}\n")


def first_difference(expected: Any, actual: Any) -> tuple[str, str, str]:
    """Where two canonical JSON data first differ (``output.items[3].name``; ``output`` for the
    whole) and each side there, shown short (:func:`_short`)."""
    where, a, b = "output", expected, actual
    while True:
        if type(a) is not type(b):
            return where, _short(a), _short(b)
        if isinstance(a, dict):
            if list(a) != list(b):
                return (where, f"keys {_short([k for k in a if k not in b])} that the answer lacks",
                        f"keys {_short([k for k in b if k not in a])} that the golden lacks")
            key = next((k for k in a if not _same(a[k], b[k])), None)
            if key is None:
                return where, "(the same)", "(the same)"
            where, a, b = f"{where}.{key}", a[key], b[key]
        elif isinstance(a, list):
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if not _same(x, y)), None)
            if at is None:
                return where, f"{len(a):,} items", f"{len(b):,} items"
            where, a, b = f"{where}[{at}]", a[at], b[at]
        elif isinstance(a, str) and a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            start = max(at - 20, 0)
            return f"{where}, character {at:,}", _short(a[start:at + 60]), _short(b[start:at + 60])
        else:
            return where, _short(a), _short(b)


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _short(value: Any, limit: int = 120) -> str:
    """``value`` as JSON text, cut to ``limit`` characters."""
    import json

    text = json.dumps(value, ensure_ascii=True)[:limit + 1]
    return text if len(text) <= limit else text[:limit] + "..."
