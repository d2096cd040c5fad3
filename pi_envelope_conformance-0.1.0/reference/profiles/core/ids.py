"""Profile and binding ids, and the profile file-name rule."""

from __future__ import annotations

import re

ID_MAX_LENGTH = 64
_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def is_valid_id(text: object) -> bool:
    """Whether ``text`` is a valid id.

    A valid id is a ``str`` that fully matches ``[A-Za-z0-9][A-Za-z0-9._-]*``, has at most 64
    characters and contains no ``..`` (so no separator, no traversal). Implements PROF-ID.
    """
    return (
        isinstance(text, str)
        and len(text) <= ID_MAX_LENGTH
        and ".." not in text
        and _ID_RE.fullmatch(text) is not None
    )


def profile_file_stem(name: str) -> str | None:
    """The would-be id of a directory entry called ``name``, or ``None`` when it is not a
    profile file at all.

    A profile file is ``<id>.md`` with the extension compared case-insensitively (``.MD`` and
    ``.Md`` count). A file named ``.md`` is a profile file whose stem is empty, so it is reported
    as a bad id rather than passed over (PROF-FILE-EMPTY-STEM). Whether the stem is a *valid* id
    is checked separately with :func:`is_valid_id`. Implements PROF-FILE-EXT.
    """
    if len(name) >= 3 and name[-3:].lower() == ".md":
        return name[:-3]
    return None
