"""The environment the kit starts an out-of-process adapter in (PROTOCOL.md, "The adapter's
environment"): a verdict must not depend on the machine that runs the suite, so an adapter gets a
fixed locale, time zone and scratch home, and nothing of the tester's (no credentials)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Mapping

from conformance.output.files import process_running

__all__ = [
    "LOCALE",
    "TIME_ZONE",
    "PASSED_VARIABLES",
    "MEASUREMENT_VARIABLES",
    "AdapterEnvironment",
    "Scratch",
    "leftover_scratch",
    "remove_leftovers",
    "parse_assignments",
]

LOCALE = "C.UTF-8"
"""The locale every adapter runs under unless a locale check asks for another."""

TIME_ZONE = "UTC"
"""The time zone every adapter runs in."""

PASSED_VARIABLES = ("PATH", "PYTHONPATH", "SYSTEMROOT", "COMSPEC", "PATHEXT")
"""Variables taken from the kit's own environment when set: what a program needs to start."""

MEASUREMENT_VARIABLES = ("COVERAGE_PROCESS_CONFIG", "COVERAGE_PROCESS_START")
"""Variables of the kit's coverage measurement, passed when set so child processes are measured."""

SCRATCH_PREFIX = "pi-conformance-adapter-"
"""How the scratch folders of adapters are named (in the system's temporary folder): the prefix,
the kit's process id, ``-`` and a random part."""


def _ours(entry: Path) -> bool:
    """Whether ``entry`` (not followed if a link) belongs to this process's user (any entry where
    the system has no owners)."""
    if not hasattr(os, "getuid"):
        return True
    try:
        return entry.lstat().st_uid == os.getuid()
    except OSError:
        return False


def leftover_scratch(folder: Path, prefix: str = SCRATCH_PREFIX) -> list[Path]:
    """The folders in ``folder`` named ``<prefix><pid>-...`` (a scratch folder, or a case's tree
    with the runner's prefix) whose kit process ``pid`` no longer runs and that belong to this
    user: a kit killed outright (``SIGKILL``) had no time to remove them. Another user's, and
    one of a process that runs (or whose number a new process now has), are left alone."""
    pattern = re.compile(re.escape(prefix) + r"(\d+)-")
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    found = []
    for entry in entries:
        match = pattern.match(entry.name)
        if match and int(match.group(1)) != os.getpid() and not process_running(int(match.group(1))) and _ours(entry):
            found.append(entry)
    return sorted(found)


_swept: set[tuple[str, str]] = set()
"""The folders and prefixes :func:`remove_leftovers` has swept in this process."""


def remove_leftovers(folder: Path, prefix: str) -> None:
    """Remove the :func:`leftover_scratch` folders of ``prefix`` in ``folder``, once per process
    (the kits whose leftovers they are ran before this one started), at any depth and whatever
    their permissions (:func:`conformance.output.removal.remove_tree`). Never raises."""
    from conformance.output.removal import remove_tree

    if (str(folder), prefix) in _swept:
        return
    _swept.add((str(folder), prefix))
    for leftover in leftover_scratch(folder, prefix):
        remove_tree(leftover)


def parse_assignments(items: Iterable[str] | None) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` (``--adapter-env``, repeatable) as a mapping, later ones winning.

    Raises ``ValueError`` naming the item when it has no ``=``, an empty key, or a key with ``=``
    or a NUL, or a value with a NUL.
    """
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--adapter-env {item!r}: expected KEY=VALUE")
        if "\0" in item:
            raise ValueError(f"--adapter-env {item!r}: a variable cannot hold a NUL character")
        out[key] = value
    return out


@dataclass
class Scratch:
    """One started adapter's scratch folder (``path``) and its whole environment (``env``)."""

    path: Path
    env: dict[str, str]

    def remove(self) -> None:
        """Remove the scratch folder and everything in it, at any depth and whatever its
        permissions (:func:`conformance.output.removal.remove_tree`; never raises)."""
        from conformance.output.removal import remove_tree

        remove_tree(self.path)


@dataclass(frozen=True)
class AdapterEnvironment:
    """How to build an adapter's environment (PROTOCOL.md, "The adapter's environment"), with
    ``extra`` (``--adapter-env``) added last and ``locale`` for ``LANG``/``LC_ALL``.

    An adapter process gets exactly: ``LANG`` and ``LC_ALL``: :data:`LOCALE` (``C.UTF-8``), or the
    locale a locale check asks for; ``TZ``: :data:`TIME_ZONE` (``UTC``); ``HOME`` (and
    ``USERPROFILE``), ``TMPDIR``, ``TEMP`` and ``TMP``: folders inside a fresh scratch folder of
    the kit, made at each start and removed when that process is stopped or killed (and at the
    next start, when the kit that made it was killed outright); the variables of
    :data:`PASSED_VARIABLES` and :data:`MEASUREMENT_VARIABLES` that the kit itself has; and
    ``extra``, last, so it can override any of the above. Nothing else passes: no credentials
    (``*_API_KEY``, tokens), no user configuration."""

    extra: Mapping[str, str] = field(default_factory=dict)
    locale: str = LOCALE
    locale_fixed: bool = False
    """Whether ``LANG`` and ``LC_ALL`` stay ``locale`` whatever ``extra`` says: set by
    :meth:`with_locale`, so that a locale check runs under the locales it names."""

    def with_locale(self, locale: str) -> "AdapterEnvironment":
        """The same environment under ``locale`` (``da_DK.UTF-8``, ``POSIX``, ...), which
        ``--adapter-env`` cannot override: a locale check that ran every locale under the
        user's ``LC_ALL`` would report a pass it never checked."""
        return replace(self, locale=locale, locale_fixed=True)

    def variables(self, scratch: Path, parent: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of an adapter whose scratch folder is ``scratch``; ``parent``: the
        kit's own environment (default ``os.environ``), read only for the passed variables."""
        parent = os.environ if parent is None else parent
        env = {name: parent[name] for name in PASSED_VARIABLES + MEASUREMENT_VARIABLES if name in parent}
        home, tmp = str(scratch / "home"), str(scratch / "tmp")
        env.update({"LANG": self.locale, "LC_ALL": self.locale, "TZ": TIME_ZONE,
                    "HOME": home, "USERPROFILE": home, "TMPDIR": tmp, "TEMP": tmp, "TMP": tmp})
        env.update(self.extra)
        if self.locale_fixed:
            env.update({"LANG": self.locale, "LC_ALL": self.locale})
        return env

    def open(self) -> Scratch:
        """Make a fresh scratch folder (with ``home/`` and ``tmp/``) and the environment using it,
        first removing the scratch folders that kits killed outright left behind
        (:func:`leftover_scratch`).

        Raises ``OSError`` when the folder cannot be made.
        """
        import tempfile  # imported only when an adapter process starts

        from conformance.output.removal import remove_tree

        for leftover in leftover_scratch(Path(tempfile.gettempdir())):
            remove_tree(leftover)
        path = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-"))
        (path / "home").mkdir()
        (path / "tmp").mkdir()
        return Scratch(path, self.variables(path))
