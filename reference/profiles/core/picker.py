"""Pure list logic of the interactive pickers: provider names, a provider's models, filtering,
the visible window, ten-item pages and the bind flow's choices."""

from __future__ import annotations

from dataclasses import dataclass

from reference.profiles.core.types import Model
from reference.text import js_trim

MAX_VISIBLE_ROWS = 10
PAGE_SIZE = 10
RESERVED_ROWS = 4
ANY = "*"


def _key(text: str) -> tuple[str, str]:
    """The sort key of a picker's name: its Unicode lower-case mapping, then the name itself, both
    in code point order (collation ``lower-case-code-point``; not ``casefold``, which JavaScript
    has no equal of)."""
    return (text.lower(), text)


def provider_names(models: list[Model]) -> list[str]:
    """Distinct provider names, sorted by their lower-case mapping, names that map alike by code
    point. Implements PROF-PICKER-PROVIDERS."""
    return sorted({m.provider for m in models}, key=_key)


def provider_models(models: list[Model], provider: str) -> list[str]:
    """The distinct model ids of ``provider``, sorted like :func:`provider_names`. Model ids
    may contain ``/``. Implements PROF-PICKER-MODELS."""
    return sorted({m.id for m in models if m.provider == provider}, key=_key)


def filter_items(items: list[str], query: str) -> list[str]:
    """The items containing ``query`` ignoring case, in their order; a blank query (only
    JavaScript's white space, :func:`reference.text.js_trim`) keeps all.
    Case is ignored by comparing Unicode lower-case mappings (``str.lower``, as JavaScript's
    ``toLowerCase``), not case folds: ``ss`` does not find ``ß``. Implements PROF-PICKER-FILTER."""
    q = js_trim(query).lower()
    return list(items) if not q else [i for i in items if q in i.lower()]


def visible_rows(terminal_rows: int | None) -> int:
    """Rows the list may use: at most ten, sized down to the terminal height minus four rows of
    chrome (title, filter line, hint, border), and at least one; ``None`` (no height known): ten,
    nothing to size down to. Implements PROF-PICKER-WINDOW."""
    if terminal_rows is None:
        return MAX_VISIBLE_ROWS
    return max(1, min(MAX_VISIBLE_ROWS, terminal_rows - RESERVED_ROWS))


def visible_window(total: int, selected: int, rows: int) -> tuple[int, int]:
    """The ``[start, end)`` slice shown for ``total`` items with ``selected`` highlighted in a
    window of ``rows``: the selection is kept in view, as near the middle as the ends allow.
    Implements PROF-PICKER-WINDOW."""
    if total <= rows:
        return 0, total
    sel = min(max(selected, 0), total - 1)
    start = min(max(sel - rows // 2, 0), total - rows)
    return start, start + rows


def pages(items: list[str]) -> list[list[str]]:
    """The items cut into pages of ten for the non-TUI fallback (the last page may be shorter;
    no items gives no page). Implements PROF-PICKER-PAGES."""
    return [items[i : i + PAGE_SIZE] for i in range(0, len(items), PAGE_SIZE)]


@dataclass(frozen=True)
class Choice:
    """One bind-flow choice: the label shown and the rule it produces."""

    label: str
    provider: str
    model: str | None


def bind_provider_choices(models: list[Model]) -> list[str]:
    """First step of ``/sp bind``: ``*`` (any provider), then the provider names.
    Implements PROF-PICKER-BIND."""
    return [ANY] + provider_names(models)


def bind_model_choices(models: list[Model], provider: str) -> list[Choice]:
    """Second step of ``/sp bind`` once ``provider`` is chosen: first ``provider/*`` (every model
    of the provider; ``*/*`` when the provider is ``*``), then each model of the provider (each
    distinct model id of every provider for ``*``). Implements PROF-PICKER-BIND."""
    if provider == ANY:
        ids = sorted({m.id for m in models}, key=_key)
    else:
        ids = provider_models(models, provider)
    out = [Choice(f"{provider}/{ANY}", provider, ANY)]
    out.extend(Choice(f"{provider}/{i}", provider, i) for i in ids)
    return out
