"""The parse cache: parsed YAML documents kept as JSON, keyed by a hash of the document's bytes
(and forms derived from them the same way: a golden's compared form, a folder of goldens, the
canonical YAML of data, each under a key that names what it is and everything it depends on).

Where it lives: the folder named by ``$PI_CONFORMANCE_CACHE`` when that is set (set it empty, or
to ``0``, ``off`` or ``none``, for no cache), else ``$XDG_CACHE_HOME/pi-conformance``, else
``~/.cache/pi-conformance``; never inside the installed package.

An entry is named by the SHA-256 of the reader's identity (this module's format number and the
ruamel.yaml version) followed by the document's exact bytes, so an edited file, or a new parser,
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
FORMAT = 1
_OFF = ("", "0", "off", "none")


@lru_cache(maxsize=1)
def _salt() -> bytes:
    """The reader's identity: this module's format number and ruamel.yaml's version, read from its
    installed metadata so that a cache hit imports no YAML parser (from the module when the
    metadata cannot be found)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        parser = version("ruamel.yaml")
    except PackageNotFoundError:
        import ruamel.yaml

        parser = ruamel.yaml.__version__
    return f"pi-conformance parse cache {FORMAT}; ruamel.yaml {parser}\n".encode()


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
