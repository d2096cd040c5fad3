"""The profile catalogue of one scope, built from directory entries the host has classified.

The host (``reference.profiles.host.disk``) lists ``profiles/`` and describes each entry with a
:class:`DirEntry`; everything else -- which entries are profiles, which are refused and why --
is decided here, without touching the file system.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reference.profiles.core.ids import is_valid_id, profile_file_stem
from reference.profiles.core.markers import forged_marker
from reference.profiles.core.types import Diagnostic, LoadedProfile, ProfileRef, Scope

PROFILE_MAX_BYTES = 65_536
BOM = b"\xef\xbb\xbf"

EntryKind = Literal["file", "dir", "link-dir", "link-dangling", "link-outside", "unreadable"]


@dataclass(frozen=True)
class DirEntry:
    """One entry of a scope's ``profiles/`` directory.

    Attributes:
        name: the entry's name as listed.
        kind: ``file`` (a regular file, or a symlink whose real path is a file inside the root),
            ``dir`` (a directory), ``link-dir`` (a symlink to a directory), ``link-dangling``
            (a symlink to nothing), ``link-outside`` (a symlink whose real path leaves the root),
            ``unreadable`` (listed but could not be read).
        data: the file's bytes for ``file`` entries, else ``None``.
    """

    name: str
    kind: EntryKind
    data: bytes | None = None


def strip_bom(data: bytes) -> bytes:
    """``data`` without one leading UTF-8 BOM; any further BOM is body text and stays.
    Implements PROF-LOAD-BOM."""
    return data[len(BOM) :] if data.startswith(BOM) else data


def _refusal(entry: DirEntry, scope: Scope) -> Diagnostic | None:
    """Why a profile-named entry cannot be read as a file, or ``None`` when it is a file.

    A symlink whose real path leaves the root is refused with ``profile-symlink`` (error,
    PROF-LOAD-ROOT). A dangling symlink (``profile-link-dangling``), a directory or a symlink to
    one (``profile-not-file``) and an entry that cannot be read (``profile-unreadable``) are
    skipped with a warning, never silently and never with a crash. Implements PROF-LOAD-LINKS."""
    subject = entry.name
    if entry.kind == "link-outside":
        return Diagnostic("error", "profile-symlink", scope, subject,
                          f"{entry.name}: resolves outside the profiles directory; refused")
    if entry.kind == "link-dangling":
        return Diagnostic("warn", "profile-link-dangling", scope, subject,
                          f"{entry.name}: symbolic link to nothing; skipped")
    if entry.kind in ("dir", "link-dir"):
        return Diagnostic("warn", "profile-not-file", scope, subject,
                          f"{entry.name}: is a directory, not a profile file; skipped")
    if entry.kind == "unreadable" or entry.data is None:
        return Diagnostic("warn", "profile-unreadable", scope, subject,
                          f"{entry.name}: could not be read; skipped")
    return None


def read_body(entry: DirEntry, scope: Scope) -> tuple[str | None, Diagnostic | None]:
    """The body of a profile file, or the diagnostic that refuses it.

    One leading BOM is removed (PROF-LOAD-BOM); a body of more than 65,536 UTF-8 bytes after
    that is refused with ``profile-too-large``, an error (PROF-LOAD-SIZE, PROF-LOAD-SIZE-LEVEL); a body that is not UTF-8 is skipped (PROF-LOAD-UTF8); a
    body containing a marker is refused (PROF-MARKER-FORGERY). Everything else is kept verbatim
    (CRLF, trailing newlines, later BOMs) -- PROF-LOAD-VERBATIM.
    """
    assert entry.data is not None
    data = strip_bom(entry.data)
    if len(data) > PROFILE_MAX_BYTES:
        return None, Diagnostic("error", "profile-too-large", scope, entry.name,
                                f"{entry.name}: {len(data)} bytes, more than {PROFILE_MAX_BYTES}; skipped")
    try:
        body = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, Diagnostic("warn", "profile-not-utf8", scope, entry.name,
                                f"{entry.name}: not UTF-8 text; skipped")
    marker = forged_marker(body)
    if marker is not None:
        return None, Diagnostic("error", "profile-marker", scope, entry.name,
                                f"{entry.name}: contains the managed-block marker {marker!r}; refused")
    return body, None


def build_catalogue(entries: list[DirEntry], scope: Scope) -> tuple[dict[str, LoadedProfile], list[Diagnostic]]:
    """The profiles of one scope and the diagnostics of its discovery.

    Args:
        entries: every entry of the scope's ``profiles/`` directory (any order).
        scope: ``global`` or ``project``.

    Returns:
        ``(profiles by id, diagnostics)``. Entries whose names are not ``*.md`` are ignored
        without a diagnostic (PROF-FILE-EXT); a ``*.md`` name whose stem is not a valid id --
        ``.md`` itself included, whose stem is empty -- is skipped with ``profile-id`` (PROF-ID,
        PROF-FILE-EMPTY-STEM); ids equal ignoring case refuse every file involved with one
        ``profile-case`` warning (PROF-LOAD-CASE); then
        :func:`_refusal` and :func:`read_body` apply.
    """
    diags: list[Diagnostic] = []
    candidates: list[tuple[str, DirEntry]] = []
    for entry in sorted(entries, key=lambda e: e.name):
        stem = profile_file_stem(entry.name)
        if stem is None:
            continue
        if not is_valid_id(stem):
            diags.append(Diagnostic("warn", "profile-id", scope, entry.name,
                                    f"{entry.name}: {stem!r} is not a valid profile id; skipped"))
            continue
        candidates.append((stem, entry))

    groups: dict[str, list[tuple[str, DirEntry]]] = {}
    for stem, entry in candidates:
        groups.setdefault(stem.lower(), []).append((stem, entry))

    profiles: dict[str, LoadedProfile] = {}
    for key in sorted(groups):
        group = groups[key]
        if len(group) > 1:
            diags.append(case_collision(group, scope))
            continue
        stem, entry = group[0]
        refusal = _refusal(entry, scope)
        if refusal is not None:
            diags.append(refusal)
            continue
        body, problem = read_body(entry, scope)
        if problem is not None:
            diags.append(problem)
            continue
        assert body is not None
        profiles[stem] = LoadedProfile(ProfileRef(scope, stem), body, len(body.encode("utf-8")), entry.name)
    return profiles, diags


def case_collision(group: list[tuple[str, DirEntry]], scope: Scope) -> Diagnostic:
    """The diagnostic for profile files whose ids are equal ignoring case (``Review.md`` and
    ``review.md``, or ``a.md`` and ``a.MD``): none of them loads, since which one a
    case-insensitive file system shows is not defined. Implements PROF-LOAD-CASE."""
    names = ", ".join(sorted(e.name for _, e in group))
    return Diagnostic("warn", "profile-case", scope, names,
                      f"profile files {names} have ids equal ignoring case; none of them is loaded")
