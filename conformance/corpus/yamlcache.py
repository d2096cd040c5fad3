"""The parse cache: parsed YAML documents, and forms derived from them (a golden's compared form,
a folder of goldens, the canonical YAML of data), kept as JSON under a key hashed from all they
depend on. It only saves time: it never decides a result, and a cache that cannot be read or
written is silently left out."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, TypeVar

from conformance.output.files import atomic_write_bytes

ENV = "PI_CONFORMANCE_CACHE"
SIZE_ENV = "PI_CONFORMANCE_CACHE_MB"
DEFAULT_SIZE_MB = 256
"""The cache folder's size bound unless ``$PI_CONFORMANCE_CACHE_MB`` says otherwise (the whole
suite's entries take some 30 MB)."""
FORMAT = 4  # 4: each entry starts with a header line holding its key and its digest
_MAGIC = f"pi-conformance-cache-{FORMAT}"
_OFF = ("", "0", "off", "none")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
T = TypeVar("T")


@lru_cache(maxsize=1)
def _salt() -> bytes:
    """The reader's identity: this module's format number and ruamel.yaml's ``__init__.py`` (which
    holds its version), found without importing it, so that a cache hit imports no YAML parser."""
    return f"pi-conformance parse cache {FORMAT}; ruamel.yaml {package_digest('ruamel.yaml')}\n".encode()


@lru_cache(maxsize=16)
def package_digest(package: str, name: str = "__init__.py") -> str:
    """Hex SHA-256 of the file ``name`` of an installed package (one that holds its version:
    ``__init__.py`` of ruamel.yaml, ``version.py`` of pydantic), found without importing the
    package; ``""`` when it cannot be found or read."""
    from importlib.util import find_spec

    try:
        spec = find_spec(package)
        folders = list(spec.submodule_search_locations or []) if spec is not None else []
        return hashlib.sha256((Path(folders[0]) / name).read_bytes()).hexdigest() if folders else ""
    except (ImportError, ValueError, OSError):
        return ""


@lru_cache(maxsize=16)
def sources_digest(paths: tuple[Path, ...], *packages: tuple[str, str]) -> str:
    """Hex SHA-256 of the code that made a derived entry: the bytes of the source files ``paths``
    (each named), read once per process, and :func:`package_digest` of each ``(package, file)``.
    An entry keyed with it is never found after that code changes. A file that cannot be read
    gives a digest no other state gives."""
    h = hashlib.sha256()
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            data = b"unreadable " + os.urandom(16)
        h.update(f"{path.name}:{len(data)}:".encode() + data)
    for package, name in packages:
        h.update(f"{package}/{name}:{package_digest(package, name)}\n".encode())
    return h.hexdigest()


def cache_dir() -> Path | None:
    """The folder of parsed documents: ``$PI_CONFORMANCE_CACHE/yaml`` when that is set, else
    ``$XDG_CACHE_HOME/pi-conformance/yaml``, else ``~/.cache/pi-conformance/yaml``. ``None`` when
    the cache is switched off (the variable set empty, or to ``0``, ``off`` or ``none``) or has no
    place it may use, said once on standard error naming the variable: a relative
    ``$PI_CONFORMANCE_CACHE`` or ``HOME``, an empty ``HOME``, a home folder that does not exist,
    a folder equal to or inside the kit's own (:func:`conformance.corpus.places.kit_folders`),
    or one not trusted (:func:`folder_problem` of it or of the folder it lies in). A relative
    ``XDG_CACHE_HOME`` is ignored, as the XDG Base Directory specification asks (said once).
    The kit's other caches, such as installed releases, lie beside it."""
    env = os.environ
    folder, variable, said = _cache_dir(env.get(ENV), env.get("XDG_CACHE_HOME"), env.get("HOME"))
    for named, text in said:
        _say_once(named, text)
    if folder is None:
        return None
    kit = _kit_folder_holding(folder)
    if kit is not None:
        _say_once(variable, f"the cache is off: {folder} is inside {kit}, which holds the kit's own files")
        return None
    if _refused_folder(os.fspath(folder)):
        return None
    foreign = _foreign_content(os.fspath(folder.parent))
    if foreign is not None:
        _say_once(variable, f"the cache folder {folder.parent} is not used: it holds files that are not the "
                            f"cache's ({foreign}) and no {TAG}")
        return None
    return folder


TAG = "CACHEDIR.TAG"
"""The file that marks the cache's folder as the kit's (the Cache Directory Tagging
Specification's, which backup tools also read); written when the folder is made."""
_TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
             "# This file is a cache directory tag created by pi-conformance.\n"
             "# For information about cache directory tags, see https://bford.info/cachedir/\n")
_KIT_MADE = frozenset(("yaml", "pi-node", "hypothesis", "diffs", TAG))
"""What the kit makes in its cache folder: the parse cache and, beside it, its other caches."""


@lru_cache(maxsize=8)
def _foreign_content(root: str) -> str | None:
    """A name in the cache folder ``root`` that the kit did not make, or ``None`` when ``root`` is
    the kit's: missing, empty, tagged (:data:`TAG`), or holding only :data:`_KIT_MADE` with only
    entries in its ``yaml`` folder (an earlier kit's, untagged). A folder of other content (``site-packages``, a project) is never
    the cache's: a ``yaml`` folder made there could shadow a package, and eviction would run there."""
    try:
        names = os.listdir(root)
    except OSError:
        return None
    if TAG in names:
        return None
    other = sorted(set(names) - _KIT_MADE - {n for n in names if _temporary(n)})
    if not other and "yaml" in names:  # untagged: the entries' folder must hold entries only
        try:
            other = sorted(f"yaml/{n}" for n in os.listdir(os.path.join(root, "yaml"))
                           if not _ENTRY_NAME.fullmatch(n) and not _temporary(n))
        except OSError:
            pass
    return other[0] if other else None


def _temporary(name: str) -> bool:
    """Whether ``name`` is one of the kit's temporaries (a writer's, before its rename)."""
    return name.startswith(".") and "pi-conformance-tmp" in name


def _cache_dir(chosen: str | None, xdg: str | None,
               home: str | None) -> tuple[Path | None, str, tuple[tuple[str, str], ...]]:
    """The cache folder the variables give (``None``: off), the variable that gave it, and what
    to say, as ``(variable, text)`` pairs."""
    if chosen is not None:
        if chosen.strip().lower() in _OFF:
            return None, ENV, ()
        if not os.path.isabs(chosen):
            return None, ENV, ((ENV, f"the cache is off: {chosen!r} is not an absolute path"),)
        return Path(chosen) / "yaml", ENV, ()
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "pi-conformance" / "yaml", "XDG_CACHE_HOME", ()
    said = (("XDG_CACHE_HOME", f"{xdg!r} is not an absolute path and is ignored"),) if xdg else ()
    if home is not None and not home:
        return None, "HOME", said + (("HOME", "the cache is off: it is empty"),)
    if home is not None and not os.path.isabs(home):
        return None, "HOME", said + (("HOME", f"the cache is off: {home!r} is not an absolute path"),)
    base = os.path.expanduser("~")
    if not os.path.isdir(base):
        shown = "no home folder" if base == "~" else f"the home folder {base} does not exist"
        return None, "HOME", said + (("HOME", f"the cache is off: {shown}"),)
    return Path(base) / ".cache" / "pi-conformance" / "yaml", "HOME", said


def _say_once(variable: str, text: str) -> None:
    """Say ``text`` of ``variable`` on standard error, once per process."""
    if (variable, text) not in _refused:
        _refused.add((variable, text))
        _say(f"pi-conformance: {text} ({variable}); set {ENV} to the absolute path of a folder of your own, or to off")


@lru_cache(maxsize=8)
def _kit_folder_holding(folder: Path) -> Path | None:
    """The kit's own folder (:func:`conformance.corpus.places.kit_folders`) that ``folder``
    is or lies inside, links resolved, or ``None``: entries there would sit among the files the
    kit reads and ships."""
    from conformance.corpus.places import kit_folders, resolved

    inside = resolved(folder)
    return next((kit for kit in map(resolved, kit_folders()) if inside.is_relative_to(kit)), None)


def key_of(text: str) -> str:
    """The entry name of a document: hex SHA-256 of the reader's identity (this module's format
    number and ruamel.yaml's version file) and the UTF-8 text, so that an edited file, or a new
    parser, has a new key and a stale entry can never be found."""
    return hashlib.sha256(_salt() + text.encode("utf-8", "surrogatepass")).hexdigest()


def hasher(label: str) -> Any:
    """A SHA-256 object holding the reader's identity and ``label``: a caller adds the bytes an
    entry depends on (lengths first, so that parts cannot run together) and names the entry by
    its ``hexdigest()``, as :func:`key_of` does for one text."""
    return hashlib.sha256(_salt() + label.encode("utf-8", "surrogatepass"))


def get(key: str, shape: Callable[[Any], T | None] | None = None) -> Any | T | None:
    """The stored document of ``key`` (decoded JSON), passed through ``shape``, or ``None`` when
    there is none to trust.

    An entry is trusted only when it is a regular file of this user (never a link, FIFO or device,
    which is not even opened for reading), at most :func:`size_bound` bytes, with this format's
    header, its own key and the digest of its content; and then only when ``shape`` (the caller's
    check of what the document must be) returns a value and raises nothing (any exception counts
    as a wrong shape). Anything else is ignored, and replaced by the caller's next :func:`put`.
    """
    folder = _usable_dir()
    if folder is None:
        return None
    data = _read_entry(os.path.join(folder, f"{key}.json"))
    if data is None:
        return None
    header, newline, body = data.partition(b"\n")
    if not newline or header != _header(key, body):
        return None
    try:
        document = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if shape is None:
        return document
    try:
        return shape(document)
    except Exception:  # noqa: BLE001 - a document of any other shape is a miss, whatever it breaks
        return None


def put(key: str, document_json: str) -> None:
    """Store a document given as JSON text under ``key`` (with its header and digest, through a
    temporary file and a rename, so that parallel workers never see half an entry), then evict the oldest entries when the folder has grown past :func:`size_bound`; errors are
    ignored."""
    folder = _usable_dir(create=True)
    if folder is None:
        return
    body = document_json.encode("utf-8", "surrogatepass")
    if len(body) > size_bound() // 4:
        return  # an entry that would push out most others is not worth keeping
    path = Path(folder) / f"{key}.json"
    try:
        if os.path.isdir(path) and not os.path.islink(path):  # in an entry's place: never read, and in the way
            from conformance.output.removal import remove_tree

            remove_tree(path)
        atomic_write_bytes(path, _header(key, body) + b"\n" + body)
    except OSError:
        return
    _note_written(folder, len(body))


def _header(key: str, body: bytes) -> bytes:
    """An entry's first line: the format, its key and the SHA-256 of the key and its body."""
    digest = hashlib.sha256(key.encode("ascii", "replace") + b"\n" + body).hexdigest()
    return f"{_MAGIC} {key} {digest}".encode("ascii", "replace")


def _read_entry(path: str) -> bytes | None:
    """The bytes of the entry file ``path`` when it is a regular file of this user within the size
    bound, else ``None``. Opened without following a link and without waiting (a FIFO's reader
    would wait for a writer), and judged by the opened file itself."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _owned(info) or info.st_size > size_bound():
            return None
        chunks = []
        left = info.st_size + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return None if left <= 0 else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _owned(info: os.stat_result) -> bool:
    """Whether a file or folder of ``info`` belongs to this process's user (any, where the system
    has no owners)."""
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()


def folder_problem(folder: str) -> str | None:
    """Why the cache folder ``folder`` (links followed) cannot be trusted, or ``None``: it must be
    a folder of this user that no other user can write (group-writable only for the user's own
    group). A missing folder has no problem (it is made, for this user alone, at the first
    :func:`put`)."""
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be examined ({exc.strerror or exc})"
    if not stat.S_ISDIR(info.st_mode):
        return "it is not a folder"
    if not _owned(info):
        return "it belongs to another user"
    if info.st_mode & stat.S_IWOTH or (info.st_mode & stat.S_IWGRP and hasattr(os, "getegid")
                                       and info.st_gid != os.getegid()):
        return "other users can write to it"
    return None


_refused: set[Any] = set()
"""The cache folders refused in this process, and the ``(variable, text)`` said of the cache's
place (each is said once)."""


def _usable_dir(create: bool = False) -> str | None:
    """The cache folder (:func:`cache_dir`) as a string, made for this user alone when ``create``;
    ``None`` when there is none to use."""
    folder = cache_dir()
    if folder is None:
        return None
    path = os.fspath(folder)
    if create and not os.path.isdir(path):
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except OSError:
            return None
    if create:
        _tag(os.path.dirname(path))
    return path


_tagged: set[str] = set()
"""The cache folders :func:`_tag` has seen tagged in this process (checked once, not per entry)."""


def _tag(root: str) -> None:
    """Write :data:`TAG` into the cache folder ``root`` when it has none; errors are ignored."""
    if root in _tagged:
        return
    _tagged.add(root)
    tag = os.path.join(root, TAG)
    if not os.path.exists(tag):
        try:
            atomic_write_bytes(Path(tag), _TAG_TEXT.encode())
        except OSError:
            pass


def _refused_folder(path: str) -> bool:
    """Whether the cache folder ``path`` is refused (:func:`folder_problem` of it or of the folder
    it lies in); a refused folder is named on standard error once per process."""
    if path in _refused:
        return True
    problem = _problem_of(path)
    if problem is None:
        return False
    _refused.add(path)
    _say(f"pi-conformance: the cache folder {path} is not used: {problem[1]} ({problem[0]}); "
         f"set {ENV} to a folder of your own, or to off")
    return True


@lru_cache(maxsize=8)
def _problem_of(path: str) -> tuple[str, str] | None:
    """The first folder of ``path`` and its parent with a :func:`folder_problem`, and the problem."""
    for folder in (path, os.path.dirname(path)):
        problem = folder_problem(folder)
        if problem is not None:
            return folder, problem
    return None


def _say(text: str) -> None:
    import sys

    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError, UnicodeError):
        pass


def size_bound_problem() -> str | None:
    """Why ``$PI_CONFORMANCE_CACHE_MB`` is no size the cache can take (not a whole number, or
    below 1), naming the variable as ``$PI_CONFORMANCE_INVARIANT_EXAMPLES``'s message does; ``None``
    when it is one or unset. The command line refuses such a value (exit 2)."""
    raw = os.environ.get(SIZE_ENV, "").strip()
    if not raw:
        return None
    try:
        megabytes = int(raw)
    except ValueError:
        return f"${SIZE_ENV}: the cache's size must be a whole number of megabytes, got {raw!r}"
    return None if megabytes >= 1 else f"${SIZE_ENV}: the cache's size must be at least 1 megabyte, got {megabytes}"


def size_bound() -> int:
    """The most bytes the cache folder holds: ``$PI_CONFORMANCE_CACHE_MB`` megabytes (a whole
    number, at least 1), by default :data:`DEFAULT_SIZE_MB`; a value :func:`size_bound_problem`
    refuses counts as the default where nothing refused it first (the pytest plugin)."""
    megabytes = DEFAULT_SIZE_MB if size_bound_problem() else int(os.environ.get(SIZE_ENV, "").strip() or DEFAULT_SIZE_MB)
    return megabytes * 1024 * 1024


_written: dict[str, int] = {}
"""Bytes written to each cache folder in this process since its size was last measured (``-1``:
never measured)."""


def _note_written(folder: str, size: int) -> None:
    """Count ``size`` bytes written to ``folder``; measure the folder at the first write of a process
    and again after each tenth of the bound written, and evict when it is past the bound."""
    done = _written.get(folder, -1)
    if done >= 0 and done + size < size_bound() // 10:
        _written[folder] = done + size
        return
    _written[folder] = 0
    evict(folder)


def evict(folder: str | os.PathLike, bound: int | None = None) -> int:
    """Remove the oldest entries (by modification time) of ``folder`` until it holds at most three
    quarters of ``bound`` bytes (default :func:`size_bound`) when it holds more than ``bound``.
    An entry is a regular file named as the cache names them (a hex key and ``.json``) that
    begins with the cache's header; nothing else there is counted or removed.
    (The leftover temporaries of writers killed outright are swept by the writes themselves:
    :func:`conformance.output.files.sweep_temporaries`.) Returns the number of files removed;
    never raises."""
    bound = size_bound() if bound is None else bound
    entries = []
    removed = 0
    try:
        with os.scandir(folder) as found:
            for entry in found:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if _ENTRY_NAME.fullmatch(entry.name) and stat.S_ISREG(info.st_mode) and _headed(entry.path):
                    entries.append((info.st_mtime, info.st_size, entry.path))
    except OSError:
        return removed
    total = sum(size for _, size, _ in entries)
    if total <= bound:
        return removed
    entries.sort()
    for _, size, path in entries:
        if total <= bound * 3 // 4:
            break
        removed += _unlink(path)
        total -= size
    return removed


_ENTRY_NAME = re.compile(r"[0-9a-f]{64}\.json")
_HEAD = b"pi-conformance-cache-"


def _headed(path: str) -> bool:
    """Whether the file at ``path`` (no link followed, never waited on) begins as a cache entry."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except OSError:
        return False
    try:
        return os.read(fd, len(_HEAD)) == _HEAD
    except OSError:
        return False
    finally:
        os.close(fd)


def _unlink(path: str) -> bool:
    """Remove ``path``; whether it was removed (a count of one or none)."""
    try:
        os.unlink(path)
        return True
    except OSError:
        return False


def matches(value: Any, shape: Any) -> bool:
    """Whether decoded JSON ``value`` has ``shape``, for a reader's check of an entry (:func:`get`).

    A shape is ``object`` (anything), ``None``, a type (``str``, ``int`` (never a boolean),
    ``float``, ``bool``), a tuple of alternative shapes, ``[S]`` (a list of ``S``), ``{"*": S}``
    (a mapping of any names to ``S``) or ``{name: S, ...}`` (a mapping of exactly those names)."""
    if shape is object:
        return True
    if shape is None:
        return value is None
    if isinstance(shape, tuple):
        return any(matches(value, alternative) for alternative in shape)
    if isinstance(shape, list):
        return isinstance(value, list) and all(matches(item, shape[0]) for item in value)
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return False
        if "*" in shape:
            return all(isinstance(k, str) and matches(v, shape["*"]) for k, v in value.items())
        return value.keys() == shape.keys() and all(matches(value[k], s) for k, s in shape.items())
    if shape is int:
        return type(value) is int
    return isinstance(value, shape) and not (shape is float and isinstance(value, bool))
