"""The parse cache: parsed YAML documents kept as JSON, keyed by a hash of the document's bytes
(and forms derived from them the same way: a golden's compared form, a folder of goldens, the
canonical YAML of data, each under a key that names what it is and everything it depends on).

Where it lives: the folder named by ``$PI_CONFORMANCE_CACHE`` when that is set (set it empty, or
to ``0``, ``off`` or ``none``, for no cache), else ``$XDG_CACHE_HOME/pi-conformance``, else
``~/.cache/pi-conformance``; never inside the installed package.

An entry is named by the SHA-256 of the reader's identity (this module's format number and
ruamel.yaml's version file) followed by the document's exact bytes, so an edited file, or a new parser,
has a new key: a stale entry can never be found. Each entry repeats its key and is ignored unless
the key matches, and one that cannot be decoded is ignored too. Entries are written through a
temporary file and a rename, so parallel workers (pytest-xdist) never see half an entry. A cache
that cannot be read or written is silently left out: it only saves time, it never decides a
result.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from conformance.files import atomic_write_text

ENV = "PI_CONFORMANCE_CACHE"
FORMAT = 3  # 3: documents whose aliases contain themselves or expand too far are refused, never kept
_OFF = ("", "0", "off", "none")


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
    """The folder of parsed documents, or ``None`` when the cache is switched off (see above)."""
    return _cache_dir(os.environ.get(ENV), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))


@lru_cache(maxsize=8)
def _cache_dir(chosen: str | None, xdg: str | None, home: str | None) -> Path | None:
    if chosen is not None:
        return None if chosen.strip().lower() in _OFF else Path(chosen) / "yaml"
    base = xdg or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pi-conformance" / "yaml"


def key_of(text: str) -> str:
    """The entry name of a document: hex SHA-256 of the reader's identity and the UTF-8 text."""
    return hashlib.sha256(_salt() + text.encode("utf-8", "surrogatepass")).hexdigest()


def hasher(label: str) -> Any:
    """A SHA-256 object holding the reader's identity and ``label``: a caller adds the bytes an
    entry depends on (lengths first, so that parts cannot run together) and names the entry by
    its ``hexdigest()``, as :func:`key_of` does for one text."""
    return hashlib.sha256(_salt() + label.encode("utf-8", "surrogatepass"))


def get(key: str) -> Any | None:
    """The stored document of ``key`` (decoded JSON), or ``None`` when there is none to trust."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        entry = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != key or "document" not in entry:
        return None
    return entry["document"]


def put(key: str, document_json: str) -> None:
    """Store a document given as JSON text under ``key`` (atomically); errors are ignored."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        atomic_write_text(folder / f"{key}.json", f'{{"key": "{key}", "document": {document_json}}}')
    except OSError:
        pass
