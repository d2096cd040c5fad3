"""Published Pi releases as adapters, ``pi-node@VERSION`` and ``pi-node-mz@VERSION``: each installed
once from the npm registry into the kit's cache, then run by the bundled Node adapter."""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from conformance.adapters.base import AdapterNameError, AdapterStartError
from conformance.output.files import kit_temporary_folder
from conformance.output.removal import remove_tree

__all__ = ["LINES", "Release", "install", "installed", "parse_release", "release_command"]

LINES = {"pi-node": "@earendil-works", "pi-node-mz": "@mariozechner"}
"""Adapter name before ``@`` -> the npm scope of that line's ``pi-coding-agent`` and ``pi-ai``."""

_VERSION = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?")
_MARKER = ".pi-conformance-installed"
NPM_TIMEOUT = 900.0
"""Seconds npm may take to install one release before the kit gives up."""

PI_NODE_DIR = Path(__file__).resolve().parent / "pi-node"


@dataclass(frozen=True)
class Release:
    """One published release: ``line`` (``pi-node``: ``@earendil-works/pi-coding-agent``, 0.74.0
    onwards; ``pi-node-mz``: the earlier line, ``@mariozechner/pi-coding-agent``, to 0.73.1) and
    its exact ``version``."""

    line: str
    version: str

    @property
    def scope(self) -> str:
        """The npm scope of the line, ``@earendil-works`` or ``@mariozechner``."""
        return LINES[self.line]

    @property
    def package(self) -> str:
        """The coding-agent package's name, ``@earendil-works/pi-coding-agent``."""
        return f"{self.scope}/pi-coding-agent"

    @property
    def name(self) -> str:
        """The adapter's name as ``--adapter`` spells it, ``pi-node@1.5.2``."""
        return f"{self.line}@{self.version}"

    @property
    def folder_name(self) -> str:
        """The cache entry's folder name, ``earendil-works-pi-coding-agent@1.5.2``."""
        return f"{self.package[1:].replace('/', '-')}@{self.version}"


def parse_release(spec: str | None) -> Release | None:
    """The release an ``--adapter`` name gives (``pi-node@1.5.2``), or ``None`` for another name.

    Raises :class:`AdapterNameError` for a release name whose version is not an exact version
    (``pi-node@latest``, ``pi-node@^1.5``, ``pi-node@``).
    """
    if not spec or "@" not in spec:
        return None
    line, _, version = spec.partition("@")
    if line not in LINES:
        return None
    if not _VERSION.fullmatch(version):
        raise AdapterNameError(f"--adapter {spec!r}: {line}@ takes an exact release version such as "
                               f"{line}@{'1.5.2' if line == 'pi-node' else '0.73.1'}, not {version!r}")
    return Release(line, version)


_temporary_root: Path | None = None


def releases_root() -> Path:
    """The folder holding installed releases: ``pi-node/`` beside the parse cache's ``yaml/``, or
    a temporary folder removed at exit when the cache is off; each release is in
    ``pi-node/<package>@<version>/`` (:attr:`Release.folder_name`)."""
    global _temporary_root
    from conformance.corpus import yamlcache

    parsed = yamlcache.cache_dir()
    if parsed is not None:
        return parsed.parent / "pi-node"
    if _temporary_root is None:
        _temporary_root = Path(tempfile.mkdtemp(prefix="pi-conformance-releases-"))
        atexit.register(remove_tree, _temporary_root)
    return _temporary_root


def installed(release: Release) -> Path | None:
    """The folder of ``release`` when it is installed in the cache (or bundled), else ``None``."""
    bundled = _bundled(release)
    if bundled is not None:
        return bundled
    folder = releases_root() / release.folder_name
    return folder if (folder / _MARKER).is_file() else None


def _bundled(release: Release) -> Path | None:
    """The bundled adapter's own folder when it holds exactly this release (``pi-node@1.6.0``)."""
    if _installed_version(PI_NODE_DIR, release.package) == release.version:
        return PI_NODE_DIR
    return None


def _installed_version(folder: Path, package: str) -> str | None:
    try:
        manifest = json.loads((folder / "node_modules" / package / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest.get("version") if isinstance(manifest, dict) else None


def pinned_node() -> Path | None:
    """The bundled adapter's pinned Node runtime, or ``None`` when it is not installed."""
    node = PI_NODE_DIR / "node_modules" / ".bin" / "node"
    return node if os.access(node, os.X_OK) else None


def npm_command() -> list[str]:
    """How npm is run: the system npm's script under the pinned Node runtime when both are there
    (so that npm judges engines by the runtime the release runs on), else ``npm`` itself.

    Raises :class:`AdapterStartError` when no npm is on ``PATH``.
    """
    npm = shutil.which("npm")
    if npm is None:
        raise AdapterStartError("npm is not on PATH: it installs Pi releases from the npm registry")
    script, node = Path(npm).resolve(), pinned_node()
    if node is not None and script.suffix == ".js":
        return [str(node), str(script)]
    return [npm]


def install(release: Release) -> Path:
    """The folder of ``release``, installed first when it is not yet.

    A release is installed once, with its dependencies, from the npm registry into the kit's
    cache folder (:func:`releases_root`). npm runs under the pinned Node runtime when it can (the
    system's npm's own script), with the user's npm configuration (registry, proxy, cache): the kit
    adds only ``--ignore-scripts`` and quiet flags. The install is atomic (made in a temporary
    folder beside the cache entry and renamed into place once npm succeeded) and serialised by a
    lock file, so parallel runs install a release once.

    Returns a folder whose ``node_modules`` holds the release's ``pi-coding-agent``. Raises
    :class:`AdapterStartError` naming what npm said when the install fails, npm is missing or
    takes more than :data:`NPM_TIMEOUT` seconds, or npm installed another version.
    """
    found = installed(release)
    if found is not None:
        return found
    import fcntl

    root = releases_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        lock = open(root / f".{release.folder_name}.lock", "a")
    except OSError as exc:
        raise AdapterStartError(f"cannot make the release cache at {root}: {exc}") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = installed(release)  # installed by another run while this one waited
        if found is not None:
            return found
        return _install_locked(release, root)


def _install_locked(release: Release, root: Path) -> Path:
    final = root / release.folder_name
    work = kit_temporary_folder(root, release.folder_name)
    try:
        (work / "package.json").write_text(
            json.dumps({"name": "pi-conformance-release", "private": True}) + "\n", encoding="utf-8")
        command = [*npm_command(), "install", "--ignore-scripts", "--no-audit", "--no-fund",
                   "--omit=dev", "--no-update-notifier", "--save-exact", f"{release.package}@{release.version}"]
        print(f"pi-conformance: {release.name} is not installed: fetching {release.package}@{release.version} "
              f"from the npm registry (network) into {final}; later runs reuse it", file=sys.stderr, flush=True)
        try:
            done = subprocess.run(command, cwd=work, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, errors="replace", timeout=NPM_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise AdapterStartError(f"npm did not install {release.package}@{release.version} "
                                    f"within {NPM_TIMEOUT:.0f} s") from None
        except OSError as exc:
            raise AdapterStartError(f"cannot run npm ({command[0]}): {exc}") from None
        if done.returncode != 0:
            raise AdapterStartError(f"npm could not install {release.package}@{release.version} "
                                    f"(exit {done.returncode}):\n{_npm_said(done.stderr)}")
        got = _installed_version(work, release.package)
        if got != release.version:
            raise AdapterStartError(f"npm installed {release.package}@{got} instead of {release.version}")
        (work / _MARKER).write_text(f"{release.package}@{release.version}\n", encoding="utf-8")
        if final.exists() and not remove_tree(final):  # left without its marker: never a complete install
            raise OSError(f"cannot remove the incomplete install {final}")
        os.rename(work, final)
    except OSError as exc:
        raise AdapterStartError(f"cannot install {release.name} into {root}: {exc}") from None
    finally:
        if work.exists():
            remove_tree(work)
    return final


def _npm_said(stderr: str, limit: int = 20) -> str:
    """npm's error lines (``npm error ...``, or its last lines when it printed none such)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("npm error", "npm ERR!"))]
    picked = (errors or lines)[-limit:]
    return "\n".join(picked) if picked else "(npm printed nothing)"


def release_command(release: Release) -> list[str]:
    """The command line of the bundled Node adapter over ``release`` (installed first): the
    adapter (``adapters/pi-node/``) on its pinned Node runtime, told the release's folder.

    The bundled release (``pi-node@1.6.0``) runs as plain ``pi-node`` does. Raises
    :class:`AdapterStartError` as :func:`install` does, or when the bundled adapter is missing.
    """
    folder = install(release)
    launcher = PI_NODE_DIR / "run.sh"
    if not launcher.exists():
        raise AdapterStartError(f"the pi-node adapter is not present at {PI_NODE_DIR}")
    if folder == PI_NODE_DIR:
        return ["bash", str(launcher)]
    return ["bash", str(launcher), "--release", str(folder), "--scope", release.scope]
