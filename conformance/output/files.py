"""File writing shared by goldens, reports, pages and schemas (atomic, and never destroying what a
named path stands for), and the name a suite file is reported by."""

from __future__ import annotations

import os
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
    """Write ``data`` to ``path`` as :func:`atomic_write_text` writes text. Raises ``OSError``."""
    import tempfile  # imported only to write: a run that writes nothing needs none

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


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
