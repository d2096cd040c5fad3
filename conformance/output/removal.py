"""Removing the folders the kit makes (case trees, adapters' scratch folders, installs), whatever an
implementation left in them: at any depth and with any permissions, never through a symbolic link,
and never raising, so that a leftover never stops a run."""

from __future__ import annotations

import os
import stat

__all__ = ["remove_tree"]

_BY_DESCRIPTOR = os.scandir in os.supports_fd and os.rmdir in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def remove_tree(path: str | os.PathLike) -> bool:
    """Remove ``path`` and, when it is a folder (not a link to one), everything under it: at any
    depth (no recursion, no path longer than one name: it walks by folder descriptors) and with any
    permissions of the kit's own user (a folder it cannot read or write is made so first). A link
    is removed, never what it points to.

    Returns ``True`` when nothing is left at ``path`` (it was there or not), ``False`` when the
    system refused some part (another user's folder, a read-only file system); never raises.
    """
    path = os.path.abspath(os.fspath(path))
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if not stat.S_ISDIR(mode):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError:
            return False
        return True
    if not _BY_DESCRIPTOR:  # pragma: no cover - systems without descriptor-relative calls
        return _remove_by_path(path)
    parent, name = os.path.split(path)
    try:
        top = os.open(parent or ".", _DIR_FLAGS & ~getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        _empty(top, name)
        os.rmdir(name, dir_fd=top)  # the folder above is not the kit's to change
        return True
    except FileNotFoundError:
        return True
    except OSError:
        return False
    finally:
        os.close(top)


def _empty(top: int, name: str) -> None:
    """Empty the folder ``name`` of the folder open as ``top``, depth first, one descriptor open at
    a time (the way back up is ``..``, checked against the folder it left). Raises ``OSError``."""
    current = _enter(top, name)
    trail: list[tuple[str, int, int, list[str]]] = []  # (name in parent, device, inode, folders left)
    try:
        folders = _clear_files(current)
        while True:
            if folders:
                child = folders.pop()
                info = os.fstat(current)
                trail.append((child, info.st_dev, info.st_ino, folders))
                inner = _enter(current, child)
                os.close(current)
                current = inner
                folders = _clear_files(current)
                continue
            if not trail:
                return
            child, device, inode, folders = trail.pop()
            outer = os.open("..", _DIR_FLAGS & ~getattr(os, "O_NOFOLLOW", 0), dir_fd=current)
            os.close(current)
            current = outer
            info = os.fstat(current)
            if (info.st_dev, info.st_ino) != (device, inode):
                raise OSError(f"the folder above {child!r} moved while it was being removed")
            _retry(lambda: os.rmdir(child, dir_fd=current), current)
    finally:
        os.close(current)


def _enter(folder: int, name: str) -> int:
    """Open the folder ``name`` of ``folder`` (never through a link), made readable, writable and
    searchable for its owner first when it was not. Raises ``OSError``."""
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=folder)
    except PermissionError:
        os.chmod(name, 0o700, dir_fd=folder)  # lstat said a folder; chmod of a link is refused
        fd = os.open(name, _DIR_FLAGS, dir_fd=folder)
    try:
        if os.fstat(fd).st_mode & 0o700 != 0o700:
            os.fchmod(fd, 0o700)
    except OSError:
        pass  # not ours: removing what is in it will say so
    return fd


def _clear_files(folder: int) -> list[str]:
    """Remove every entry of ``folder`` that is not a folder (links included); the names of the
    folders in it. Raises ``OSError``."""
    folders = []
    with os.scandir(folder) as entries:
        names = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in entries]
    for name, is_folder in names:
        if is_folder:
            folders.append(name)
        else:
            _retry(lambda: os.unlink(name, dir_fd=folder), folder)
    return folders


def _retry(remove, folder: int) -> bool:
    """Call ``remove``; when refused for permissions, make ``folder`` writable and call it again.
    A name already gone counts as removed. Returns ``True``; raises ``OSError``."""
    try:
        remove()
    except FileNotFoundError:
        pass
    except PermissionError:
        os.fchmod(folder, 0o700)
        remove()
    return True


def _remove_by_path(path: str) -> bool:  # pragma: no cover - systems without descriptor-relative calls
    import shutil

    def retry(fn, name, _exc):
        if os.path.dirname(name) != os.path.dirname(path):
            os.chmod(os.path.dirname(name), 0o700)
        fn(name)

    try:
        shutil.rmtree(path, onerror=retry)
    except (OSError, RecursionError):
        pass
    return not os.path.lexists(path)
