"""The disk edge: reading a scope's tree, atomic writes and config edits.

Layout (pi-prompt-profiles' architecture): ``<agentDir>/system-prompts/{config.json,profiles/*.md}`` for the global
scope and ``<projectDir>/.pi/system-prompts/...`` for the project scope, where the project
directory is the session's cwd. Paths come in as arguments; nothing here reads the process's
environment or current directory.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.errors import SpecError
from reference.profiles.core.config import is_version_one, parse_config, parse_json_text
from reference.profiles.core.profiles import BOM, PROFILE_MAX_BYTES, DirEntry, build_catalogue
from reference.profiles.core.types import Config, Diagnostic, Scope, ScopeState, State

SYSTEM_PROMPTS_DIR = "system-prompts"
PROJECT_CONFIG_DIR = ".pi"
CONFIG_FILE = "config.json"
PROFILES_DIR = "profiles"


def scope_dir(agent_dir: Path, cwd: Path, scope: Scope) -> Path:
    """The ``system-prompts`` directory of ``scope``: ``<agentDir>/system-prompts`` (global) or
    ``<cwd>/.pi/system-prompts`` (project). Implements PROF-PROJECT-DIR."""
    if scope == "global":
        return agent_dir / SYSTEM_PROMPTS_DIR
    return cwd / PROJECT_CONFIG_DIR / SYSTEM_PROMPTS_DIR


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def classify(profiles_dir: Path, name: str) -> DirEntry:
    """Describe one entry of ``profiles_dir`` for the core.

    The entry's real path (every symlink followed) must stay inside the real path of
    ``profiles_dir``; otherwise it is ``link-outside`` and is never read. A dangling symlink is
    ``link-dangling``, a symlink to a directory ``link-dir``. At most 65,540 bytes are read, enough
    to tell a 65,536-byte body (plus a BOM) from a larger one. The root is the real path of
    ``profiles_dir`` itself. Implements PROF-LOAD-ROOT and PROF-LOAD-ROOT-SCOPE.
    """
    path = profiles_dir / name
    root = os.path.realpath(profiles_dir)
    real = os.path.realpath(path)
    if path.is_symlink():
        if not path.exists():
            return DirEntry(name, "link-dangling")
        if not _inside(real, root):
            return DirEntry(name, "link-outside")
        if path.is_dir():
            return DirEntry(name, "link-dir")
    elif path.is_dir():
        return DirEntry(name, "dir")
    if not _inside(real, root) or not os.path.isfile(real):
        return DirEntry(name, "unreadable")
    try:
        # the checked real path is opened, so a link swapped after the check is not followed
        with open(real, "rb") as fh:
            data = fh.read(PROFILE_MAX_BYTES + len(BOM) + 1)
    except OSError:
        return DirEntry(name, "unreadable")
    return DirEntry(name, "file", data)


def list_profiles_dir(profiles_dir: Path, scope: Scope, diags: list[Diagnostic]) -> list[str]:
    """The sorted entry names of ``profiles_dir``. A missing ``profiles/`` has none; one that
    exists but cannot be listed (a file, a dangling link, no permission) has none and is
    reported with ``profiles-dir`` (error, subject ``profiles``), so the scope loads without
    profiles instead of failing. Implements PROF-LOAD-DIR."""
    if not profiles_dir.exists() and not profiles_dir.is_symlink():
        return []
    try:
        return sorted(os.listdir(profiles_dir))
    except OSError as exc:
        diags.append(Diagnostic("error", "profiles-dir", scope, PROFILES_DIR,
                                f"{PROFILES_DIR}/ could not be read ({exc.strerror or exc}); no profile of this scope loads"))
        return []


def load_scope(directory: Path, scope: Scope) -> ScopeState:
    """Read one scope: its ``profiles/`` entries and its ``config.json``.

    A missing directory, ``profiles/`` or ``config.json`` is simply empty (a trusted project's
    profiles load without a config -- PROF-LOAD-NO-CONFIG); a ``profiles`` that cannot be listed
    is reported (:func:`list_profiles_dir`). A ``config.json`` that is not a
    regular file, cannot be read or is not UTF-8 is reported with ``config-unreadable`` and
    ignored; one whose real path leaves the scope directory with ``config-outside-root``.
    Implements PROF-CONFIG-FILE.
    """
    state = ScopeState(scope)
    profiles_dir = directory / PROFILES_DIR
    names = list_profiles_dir(profiles_dir, scope, state.diagnostics)
    if names:
        entries = [classify(profiles_dir, name) for name in names]
        state.profiles, found = build_catalogue(entries, scope)
        state.diagnostics.extend(found)
    config_path = directory / CONFIG_FILE
    if config_path.exists() or config_path.is_symlink():
        state.config_present = True
        real = os.path.realpath(config_path)
        if not _inside(real, os.path.realpath(directory)):
            state.diagnostics.append(Diagnostic("error", "config-outside-root", scope, CONFIG_FILE,
                                                "config.json resolves outside its directory; ignored"))
            return state
        try:
            text = Path(real).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            state.diagnostics.append(Diagnostic("error", "config-unreadable", scope, CONFIG_FILE,
                                                "config.json could not be read as UTF-8 text; ignored"))
            return state
        state.config, diags = parse_config(text, scope)
        state.diagnostics.extend(diags)
    return state


def load_state(agent_dir: Path, cwd: Path, trusted: bool) -> State:
    """The global scope, and the project scope only when the project is trusted: an untrusted
    project's directory is never read (PROF-TRUST)."""
    global_ = load_scope(scope_dir(agent_dir, cwd, "global"), "global")
    project = load_scope(scope_dir(agent_dir, cwd, "project"), "project") if trusted else None
    return State(global_, project)


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory, flushed to
    disk and renamed over ``path``, so a reader sees the old or the new file, never a partial
    one. Parent directories are created. Implements PROF-WRITE-ATOMIC."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def serialise_config(raw: dict[str, Any]) -> str:
    """The text written for a config object: JSON with two-space indentation, keys in their
    order, non-ASCII kept (PROF-EDIT-TEXT-KEPT), one final newline."""
    return json.dumps(raw, indent=2, ensure_ascii=False) + "\n"


@dataclass
class PendingEdit:
    """A config read for editing: its path and scope, the bytes read (``None`` when the file did
    not exist) and the parsed object."""

    path: Path
    scope: Scope
    snapshot: bytes | None
    raw: dict[str, Any]


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def begin_edit(path: Path, scope: Scope) -> PendingEdit:
    """Read a config for editing. A missing file starts from ``{"version": 1}``.

    Raises ``SpecError`` with ``config-edit-invalid`` (not a JSON object) or
    ``config-edit-version`` (``version`` is not the number 1): such a file is never rewritten.
    Implements PROF-EDIT-VERSION and PROF-EDIT-CREATE (with :func:`serialise_config`).
    """
    snapshot = _read(path)
    if snapshot is None:
        return PendingEdit(path, scope, None, {"version": 1})
    try:
        raw = parse_json_text(snapshot.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise SpecError("config-edit-invalid", f"{path.name} is not valid JSON ({exc}); not edited", path="config") from exc
    if not isinstance(raw, dict):
        raise SpecError("config-edit-invalid", f"{path.name} does not hold a JSON object; not edited", path="config")
    if not is_version_one(raw.get("version")):
        raise SpecError("config-edit-version", f"{path.name} has version {raw.get('version')!r}, not 1; not edited", path="version")
    return PendingEdit(path, scope, snapshot, raw)


def commit_edit(edit: PendingEdit, new_raw: dict[str, Any]) -> tuple[Config | None, list[Diagnostic], str]:
    """Write ``new_raw`` in place of the config read by :func:`begin_edit`.

    Refused with ``SpecError('config-changed')`` when the file's bytes differ from what was read
    (PROF-EDIT-RACE); otherwise written atomically (:func:`atomic_write`), then re-read and
    re-validated (PROF-EDIT-REVALIDATE). Returns ``(config, diagnostics, written text)``.
    """
    if _read(edit.path) != edit.snapshot:
        raise SpecError("config-changed", f"{edit.path.name} changed since it was read; not written", path="config")
    text = serialise_config(new_raw)
    atomic_write(edit.path, text.encode("utf-8"))
    written = edit.path.read_bytes().decode("utf-8")
    config, diags = parse_config(written, edit.scope)
    return config, diags, written
