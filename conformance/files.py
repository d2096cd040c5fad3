"""File writing shared by goldens, reports and schemas: atomic, so a reader never sees half a file
and a failed write leaves the previous file as it was; and the name a suite file is reported by."""

from __future__ import annotations

import os
from pathlib import Path


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` through a temporary file in the same
    directory and a rename. Creates missing parent directories. Raises ``OSError`` when the
    directory cannot be made or written; the target is then untouched."""
    import tempfile  # imported only to write: a run that writes nothing needs none

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


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
    except ValueError:
        return str(path)
