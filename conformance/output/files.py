"""File writing shared by goldens, reports, pages and schemas (atomic, and never destroying what a
named path stands for), and the name a suite file is reported by."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

_OPEN_STREAMS = ("/proc/", "/dev/fd/")
"""Where a link names a stream this process already holds open (``/dev/stdout`` ->
``/proc/self/fd/1``): written in place even when the stream is a regular file."""


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` through a temporary file in the same
    directory and a rename. Creates missing parent directories. Raises ``OSError`` when the
    directory cannot be made or written; the target is then untouched."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` as :func:`atomic_write_text` writes text, through a kit temporary
    (:func:`kit_temporary`). Raises ``OSError``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = kit_temporary(path.parent, path.name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# --- the kit's temporaries ----------------------------------------------------------------------

TEMPORARY_MARK = ".pi-conformance-tmp~"
"""What every temporary of the kit holds in its name: ``.<name>`` (the file it stands in for,
cut to fit) + this mark + ``<host>~<pid>~`` + eight random characters. A kit killed outright
(``SIGKILL``) between the write and the rename leaves one behind; :func:`sweep_temporaries`
recognises it by this pattern alone."""

STALE_AFTER = 60.0
"""Seconds since its last change after which a temporary of a writer that no longer runs is
removed: younger, its process id may be of a writer just started under another process view."""

_TEMPORARY = re.compile(r"\..*" + re.escape(TEMPORARY_MARK) + r"(?P<host>[A-Za-z0-9._-]{1,64})~(?P<pid>[0-9]{1,10})~[a-z0-9_]{8}\Z",
                        re.DOTALL)
_NAME_MAX = 255
"""The longest file name (in bytes) of the usual file systems."""

_swept: set[str] = set()
"""The folders :func:`sweep_temporaries` has swept in this process."""


def this_host() -> str:
    """This machine's name as a temporary's name carries it (characters other than letters,
    digits, ``.``, ``_`` and ``-`` made ``_``, at most 64)."""
    try:
        name = os.uname().nodename
    except (AttributeError, OSError):  # pragma: no cover - systems without uname
        name = ""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)[:64] or "host"


def temporary_name(name: str) -> str:
    """The name of a kit temporary for a file named ``name``, without its eight random
    characters: ``.<name>`` cut so that the whole fits in a file name, then the mark, this
    host and this process id (:data:`TEMPORARY_MARK`)."""
    tail = f"{TEMPORARY_MARK}{this_host()}~{os.getpid()}~"
    room = _NAME_MAX - 8 - len(tail.encode()) - 1
    head = name.encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")
    return f".{head}{tail}"


def temporary_owner(name: str) -> tuple[str, int] | None:
    """``(host, pid)`` of the writer of a kit temporary named ``name``; ``None`` for any other name."""
    match = _TEMPORARY.fullmatch(name)
    return (match["host"], int(match["pid"])) if match else None


def kit_temporary(folder: Path, name: str) -> tuple[int, str]:
    """A new temporary file in ``folder`` standing in for ``name`` (:func:`temporary_name`), open
    for writing: ``(descriptor, path)``. The folder's stale temporaries are swept first
    (:func:`sweep_temporaries`). Raises ``OSError`` when it cannot be made."""
    import tempfile  # imported only to write: a run that writes nothing needs none

    sweep_temporaries(folder)
    return tempfile.mkstemp(prefix=temporary_name(name), dir=folder)


def kit_temporary_folder(folder: Path, name: str) -> Path:
    """A new temporary folder in ``folder`` standing in for ``name``, named and swept as
    :func:`kit_temporary`'s files are. Raises ``OSError`` when it cannot be made."""
    import tempfile

    sweep_temporaries(folder)
    return Path(tempfile.mkdtemp(prefix=temporary_name(name), dir=folder))


def sweep_temporaries(folder: str | os.PathLike) -> int:
    """Remove, once per process and folder, the kit temporaries in ``folder`` (named as
    :data:`TEMPORARY_MARK` says) that are this user's, of this host, of a process that no longer
    runs, and unchanged for :data:`STALE_AFTER` seconds: what kits killed outright left. A link is
    removed, never followed; a folder is removed whole (:func:`conformance.output.removal.remove_tree`).
    No other file is touched. Returns the number removed; never raises."""
    import time

    from conformance.output.removal import remove_tree

    key = os.path.abspath(folder)
    host, now, removed, entries = this_host(), time.time(), 0, []
    if key not in _swept:
        _swept.add(key)
        try:
            with os.scandir(key) as found:
                entries = [entry for entry in found if TEMPORARY_MARK in entry.name]
        except OSError:
            pass
    for entry in entries:
        owner = temporary_owner(entry.name)
        if owner is None or owner[0] != host or owner[1] == os.getpid() or process_running(owner[1]):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if info.st_mtime > now - STALE_AFTER or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
            continue
        removed += remove_tree(entry.path)
    return removed


def process_running(pid: int) -> bool:
    """Whether a process ``pid`` exists on this machine (another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def written_in_place(path: str | os.PathLike) -> bool:
    """Whether :func:`write_text` writes ``path`` in place rather than by a rename: it exists
    (links followed) and is not a regular file, or a link on its way names an open stream of
    this process (``/dev/stdout`` with standard output sent to a file)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) or _through_open_stream(path)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to the file a person named ``path``.

    A regular file (or a new one) is replaced atomically (:func:`atomic_write_text`); through a
    symbolic link, the file the link leads to is, and the link stays. A path that is not a regular
    file (:func:`written_in_place`) is opened for appending and written, after the console's own
    streams are flushed, so that a report sent to ``/dev/stdout`` follows what was printed. Raises
    ``OSError`` when the file cannot be written."""
    if written_in_place(path):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        with open(path, "a", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        return
    atomic_write_text(Path(os.path.realpath(path)), text)


def _through_open_stream(path: str | os.PathLike) -> bool:
    """Whether ``path`` or a symbolic link it leads through lies in ``/proc`` or ``/dev/fd``."""
    current = os.path.abspath(path)
    for _ in range(40):  # the system's own limit of links followed
        if current.startswith(_OPEN_STREAMS):
            return True
        try:
            target = os.readlink(current)
        except OSError:
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
    return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def shown_path(path: Path) -> str:
    """How a suite file is named in messages: its path relative to the working folder when it lies
    below it, else as given. Symbolic links are not followed, so a link is named by its own path,
    never by the file it points to."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except (ValueError, OSError):  # not below it, or no working folder at all (removed)
        return str(path)
