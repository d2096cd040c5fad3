"""Profile references: ``id``, ``global:id`` or ``project:id``."""

from __future__ import annotations

from functools import lru_cache

from reference.profiles.core.ids import is_valid_id
from reference.profiles.core.types import ProfileRef, Scope


def parse_ref(text: object, bare_scope: Scope) -> ProfileRef | None:
    """Parse a profile reference written in a config (or an ``extends``).

    Args:
        text: the JSON value found; anything but a ``str`` is invalid.
        bare_scope: the scope a bare id resolves in -- the scope of the config (or of the child
            profile) where the reference is written.

    Returns:
        The reference, or ``None`` when ``text`` is not ``[global:|project:]<valid id>``.

    Implements PROF-REF (a bare id resolves in the writer's own scope).
    """
    if not isinstance(text, str):
        return None
    return _parse_str_ref(text, bare_scope)


@lru_cache(maxsize=4096)
def _parse_str_ref(text: str, bare_scope: Scope) -> ProfileRef | None:
    """:func:`parse_ref` for a string (memoised: the result is immutable)."""
    scope: Scope = bare_scope
    ident = text
    for prefix in ("global", "project"):
        if text.startswith(prefix + ":"):
            scope = prefix  # type: ignore[assignment]
            ident = text[len(prefix) + 1 :]
            break
    if not is_valid_id(ident):
        return None
    return ProfileRef(scope, ident)


def session_ref_candidates(text: object, project_available: bool) -> list[ProfileRef] | None:
    """The references a session-level name (``/sp use NAME``, the ``--sp-profile`` flag) may
    mean, in lookup order.

    An explicit ``global:``/``project:`` reference means exactly that profile. A bare id is
    looked up in the trusted project first, then globally (only globally when no trusted project
    is available). ``None`` when ``text`` is not a valid reference. Implements PROF-REF-SESSION.
    """
    if not isinstance(text, str):
        return None
    if text.startswith(("global:", "project:")):
        ref = parse_ref(text, "global")
        return [ref] if ref else None
    if not is_valid_id(text):
        return None
    refs = [ProfileRef("project", text)] if project_available else []
    refs.append(ProfileRef("global", text))
    return refs
