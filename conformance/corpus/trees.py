"""Described file trees (a case's ``tree``, format in ``conformance/AUTHORING.md``): checked, then
materialised in a temporary directory for each case, never reaching outside it."""

from __future__ import annotations

import base64
import binascii
import contextlib
import errno
import os
import sys
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

ENTRY_FIELDS = ("text", "base64", "fill", "size", "prefix", "symlink", "dir")


@dataclass(frozen=True)
class TreeEntry:
    """One validated entry of a described tree: exactly one of ``text``, ``base64``, ``fill``
    (with ``size`` in bytes and perhaps ``prefix``), ``symlink`` or ``dir`` (``True``) is set,
    the others are ``None``. Made by :func:`parse_tree`, which checks the entry with the model of
    :func:`_entry_model`, or from its :meth:`as_data` (a cached case), which was so checked."""

    text: str | None = None
    base64: str | None = None
    fill: str | None = None
    size: int | None = None
    prefix: str | None = None
    symlink: str | None = None
    dir: bool | None = None

    def as_data(self) -> dict[str, Any]:
        """The entry as written in a scenario file, its unset fields left out."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}

    def content(self) -> bytes:
        """The file's bytes (for text, base64 and fill entries)."""
        if self.text is not None:
            return self.text.encode("utf-8")
        if self.base64 is not None:
            return base64.b64decode(self.base64)
        head = (self.prefix or "").encode("utf-8")
        assert self.size is not None and self.fill is not None
        need = self.size - len(head)
        body = (self.fill * (need // len(self.fill) + 1)).encode("utf-8")[:need]
        return head + body


def tree_data(tree: dict[str, TreeEntry]) -> dict[str, dict[str, Any]]:
    """A validated tree as written in a scenario file (each entry's :meth:`TreeEntry.as_data`)."""
    return {key: entry.as_data() for key, entry in tree.items()}


@lru_cache(maxsize=1)
def _entry_model() -> Any:
    """The pydantic model that checks one raw entry (built when a tree is first checked, so a
    case read from the parse cache needs no pydantic)."""
    from pydantic import BaseModel, ConfigDict, Field, model_validator

    class TreeEntryModel(BaseModel):
        """One entry of a described tree (exactly one of the kinds)."""

        model_config = ConfigDict(extra="forbid")

        text: str | None = None
        base64: str | None = None
        fill: str | None = None
        size: int | None = Field(default=None, ge=0, le=64 * 1024 * 1024)
        prefix: str | None = None
        symlink: str | None = None
        dir: bool | None = None

        @model_validator(mode="after")
        def _one_kind(self) -> "TreeEntryModel":
            kinds = [k for k in ("text", "base64", "fill", "symlink", "dir") if getattr(self, k) is not None]
            if len(kinds) != 1:
                raise ValueError("a tree entry needs exactly one of text, base64, fill, symlink, dir")
            if (self.size is not None or self.prefix is not None) and kinds[0] != "fill":
                raise ValueError("size and prefix go with fill")
            if kinds[0] == "fill":
                if self.size is None:
                    raise ValueError("fill needs size")
                if not self.fill or len(self.fill.encode("utf-8")) != len(self.fill):
                    raise ValueError("fill must be a non-empty run of one-byte (ASCII) characters")
                if len((self.prefix or "").encode("utf-8")) > self.size:
                    raise ValueError("prefix is longer than size")
            if self.dir is False:
                raise ValueError("dir must be true")
            if self.base64 is not None:
                try:
                    base64.b64decode(self.base64, validate=True)
                except (binascii.Error, ValueError):
                    raise ValueError("base64 is not valid base64") from None
            return self

    return TreeEntryModel


def check_key(key: str) -> str | None:
    """Why ``key`` is not a valid tree path, or ``None`` when it is."""
    if not key or key.startswith("/") or "\\" in key or (len(key) > 1 and key[1] == ":"):
        return "tree paths are relative, '/'-separated paths"
    if "\0" in key:
        return "tree paths may not contain the NUL character (U+0000): no file system can name it"
    parts = key.rstrip("/").split("/")
    if any(p in ("", ".", "..") for p in parts):
        return "tree paths may not contain empty, '.' or '..' segments"
    for part in parts:
        size = len(part.encode("utf-8", "surrogatepass"))
        if size > MAX_NAME_BYTES:
            return (f"a name in a tree path may be at most {MAX_NAME_BYTES} bytes in UTF-8 (the file systems' "
                    f"limit); {part[:20]!r}... is {size}")
    return None


MAX_NAME_BYTES = 255
"""The longest name of one file or folder, in UTF-8 bytes, that the common file systems accept."""


def file_above(tree: dict[str, TreeEntry]) -> tuple[str, str] | None:
    """The first entry of ``tree`` (in key order) that lies under a file of the tree (a path that
    would be a file and a folder at once), and why; ``None`` when there is none."""
    files = {key for key, entry in tree.items() if not entry.dir and entry.symlink is None}
    for key in sorted(tree):
        above = _above_in(key, files)
        if above is not None:
            return key, f"{key!r}: lies under {above!r}, which the tree makes a file; a path is a file or a folder"
    return None


def _above_in(key: str, paths: set[str] | dict[str, str]) -> str | None:
    """The first folder above ``key`` (shortest first) that is one of ``paths``, or ``None``."""
    parts = key.split("/")
    for depth in range(1, len(parts)):
        above = "/".join(parts[:depth])
        if above in paths:
            return above
    return None


def parse_tree(raw: dict) -> dict[str, TreeEntry]:
    """Validate a raw ``tree`` mapping of relative, ``/``-separated paths to entries. Raises
    ``ValueError`` naming the bad key (:func:`check_key`, :func:`links_problem`, :func:`file_above`).

    An entry is a string, or ``{text: STR}``: a file holding that UTF-8 text, byte for byte;
    ``{base64: STR}``: a file holding the decoded bytes; ``{fill: STR, size: N, prefix?: STR}``: a
    file of exactly ``N`` UTF-8 bytes: ``prefix``, then ``fill`` repeated, cut at ``N`` bytes
    (``fill`` must be one-byte characters so the cut is clean); ``{symlink: TARGET}``: a symbolic
    link whose target is ``TARGET`` as written, a relative path that stays inside the tree;
    ``{dir: true}``: an empty directory. Parent directories are created as needed
    (:func:`materialise`)."""
    from pydantic import ValidationError

    from conformance.errors import validation_problem

    if not isinstance(raw, dict):
        raise ValueError("tree must be a mapping of paths to entries")
    out: dict[str, TreeEntry] = {}
    for key, value in raw.items():
        problem = check_key(str(key))
        if problem:
            raise TreeError(str(key), f"{key!r}: {problem}")
        model = _entry_model()
        try:
            checked = model(text=value) if isinstance(value, str) else model.model_validate(value)
        except ValidationError as exc:
            detail = "; ".join((".".join(str(p) for p in e["loc"]) + ": " if e["loc"] else "") + validation_problem(e, "a mapping")
                               for e in exc.errors())
            raise TreeError(str(key), f"{key!r}: {detail}") from None
        out[str(key).rstrip("/")] = TreeEntry(**{name: getattr(checked, name) for name in ENTRY_FIELDS})
    problem = links_problem(out) or file_above(out)
    if problem is not None:
        raise TreeError(*problem)
    return out


class TreeError(ValueError):
    """A described tree that cannot be made: ``key`` names the entry, the message says why."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


MAX_LINK_HOPS = 40
"""Links followed in a row before a path counts as a loop (the system's own limit)."""


def links_problem(tree: dict[str, TreeEntry]) -> tuple[str, str] | None:
    """The first entry of ``tree`` (in key order) that would let the tree reach outside itself, and
    why; ``None`` when there is none. A symbolic link's target must be a relative, ``/``-separated
    path that, followed through the tree's own links as the system follows them (a ``..`` after
    a link leaves the folder the link leads to), stays inside the tree; and no entry may lie
    under a link of the tree (it would be written through the link)."""
    links = {key: entry.symlink for key, entry in tree.items() if entry.symlink is not None}
    for key in sorted(tree):
        above = _above_in(key, links)
        if above is not None:
            return key, f"{key!r}: lies under the symbolic link {above!r} of the tree; write it where the link leads"
        if key in links and _leaves_tree(links, key.split("/")[:-1], links[key]):
            return key, (f"{key!r}: the symbolic link's target {links[key]!r} leads outside the tree; a link in a "
                         "tree may point only inside it (a relative, '/'-separated path)")
    return None


def _leaves_tree(links: dict[str, str], folder: list[str], target: str) -> bool:
    """Whether ``target``, read in the tree folder ``folder`` (its segments), leads outside the
    tree when the tree's ``links`` are followed on the way (a loop stays inside: the system
    refuses it)."""
    stack = list(folder)
    pending = target.split("/")
    pending.reverse()
    hops = 0
    if target.startswith("/") or "\\" in target or (len(target) > 1 and target[1] == ":"):
        return True
    while pending:
        part = pending.pop()
        if part in ("", "."):
            continue
        if part == "..":
            if not stack:
                return True
            stack.pop()
            continue
        stack.append(part)
        found = links.get("/".join(stack))
        if found is None:
            continue
        hops += 1
        if hops > MAX_LINK_HOPS:
            return False
        if found.startswith("/") or "\\" in found or (len(found) > 1 and found[1] == ":"):
            return True
        stack.pop()
        pending.extend(reversed(found.split("/")))
    return False


_BY_DESCRIPTOR = os.open in os.supports_dir_fd and os.mkdir in os.supports_dir_fd and \
    os.symlink in os.supports_dir_fd and hasattr(os, "O_DIRECTORY") and hasattr(os, "O_NOFOLLOW")


def materialise(tree: dict[str, TreeEntry], root: Path) -> None:
    """Create ``tree`` under the existing, empty directory ``root``, without following any link
    on the way: each folder is entered by a descriptor opened with ``O_NOFOLLOW`` and each file
    is new (``O_EXCL``), so nothing is ever written outside ``root``. A tree whose links would
    reach outside it (:func:`links_problem`: checked when the scenario is read, and again here
    for a tree from anywhere else) is not made.

    Raises ``OSError`` when the file system refuses (for example symlinks on a system without
    them; cases that need symlinks declare ``requires: [symlinks]``) or the tree reaches outside.
    """
    problem = links_problem(tree)
    if problem is not None:
        raise OSError(errno.EPERM, f"the tree is not made: {problem[1]}")
    for key in tree:
        if "\0" in key:  # a tree that never passed the scenario check (check_key)
            raise OSError(errno.EINVAL, f"the tree is not made: the name {key!r} holds a NUL character")
        try:
            os.fsencode(key)
        except UnicodeEncodeError:  # an ASCII file system encoding (PYTHONUTF8=0 under the C locale)
            raise OSError(errno.EILSEQ, f"the tree is not made: the name {key!r} cannot be written in the file system's "
                                        f"encoding ({sys.getfilesystemencoding()}); run Python in UTF-8 mode "
                                        "(PYTHONUTF8=1), as pi-conformance itself does") from None
    if not _BY_DESCRIPTOR:  # pragma: no cover - systems without descriptor-relative calls
        _materialise_by_path(tree, os.fspath(root))
        return
    top = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for key in sorted(tree):
            entry = tree[key]
            parts = key.split("/")
            folder = _enter(top, parts if entry.dir else parts[:-1])
            try:
                if entry.dir:
                    continue
                if entry.symlink is not None:
                    os.symlink(entry.symlink, parts[-1], dir_fd=folder)
                    continue
                fd = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666, dir_fd=folder)
                try:
                    data = memoryview(entry.content())
                    while data:
                        data = data[os.write(fd, data):]
                finally:
                    os.close(fd)
            finally:
                if folder != top:
                    os.close(folder)
    finally:
        os.close(top)


def _enter(top: int, parts: list[str]) -> int:
    """The descriptor of the folder ``parts`` below ``top``, each folder on the way made when
    missing and entered without following a link (a link in the way is ``ELOOP``/``ENOTDIR``).
    ``top`` itself for no parts. Raises ``OSError``."""
    current = top
    try:
        for part in parts:
            try:
                os.mkdir(part, dir_fd=current)
            except FileExistsError:
                pass
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=current)
            if current != top:
                os.close(current)
            current = inner
    except BaseException:
        if current != top:
            os.close(current)
        raise
    return current


def _materialise_by_path(tree: dict[str, TreeEntry], base: str) -> None:  # pragma: no cover - see above
    for key in sorted(tree):
        entry = tree[key]
        parts = key.split("/")
        for depth in range(1, len(parts) + (1 if entry.dir else 0)):
            path = os.path.join(base, *parts[:depth])
            if os.path.islink(path):
                raise OSError(errno.ELOOP, f"a link is in the way of {key!r}")
            os.makedirs(path, exist_ok=True)
        target = os.path.join(base, *parts)
        if entry.symlink is not None:
            os.symlink(entry.symlink, target)
        elif not entry.dir:
            with open(target, "xb") as out:
                out.write(entry.content())


@contextlib.contextmanager
def tree_folder(prefix: str, parent: str | None = None) -> Iterator[tuple[str, str]]:
    """A fresh, empty folder for one tree, named ``prefix``, the kit's process id, ``-`` and a
    random part, in ``parent`` (``None``: the system's temporary folder), after the leftovers of
    kits killed outright with that prefix are swept (once per process). Yields ``(root, made)``:
    the folder with its parent's links resolved, and as made. At exit the folder is removed with
    whatever was written in it (:func:`conformance.output.removal.remove_tree`: any depth, any
    permissions, no link followed; never raises). Raises ``OSError`` when it cannot be made."""
    import tempfile

    from conformance.adapters.environment import remove_leftovers
    from conformance.output.removal import remove_tree

    remove_leftovers(Path(parent or tempfile.gettempdir()), prefix)
    made = tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent)
    root = os.path.join(os.path.realpath(os.path.dirname(made)), os.path.basename(made))
    try:
        yield root, made
    finally:
        remove_tree(made)


def symlinks_supported() -> bool:
    """Whether this system can create symbolic links (the ``symlinks`` capability)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        try:
            os.symlink("x", Path(tmp) / "l")
            return True
        except (OSError, NotImplementedError):
            return False
