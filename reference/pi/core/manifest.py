"""What a package declares: its ``pi`` manifest, conventional resource directories, and the
host-provided dependency warning (Pi's docs "Pi Packages"; PI-DECISION-PACKAGES).

Paths are POSIX strings. Discovery reads the package tree only through a :class:`FileSystem`
the caller gives (:class:`reference.pi.host.disk.DiskFileSystem` over the real disk), so the rules
stay independent of the disk.
"""

from __future__ import annotations

import json
import posixpath
from typing import Any, Iterable, Mapping, Protocol

from wcmatch import glob as wglob

from reference.pi.core.filters import GLOB_FLAGS, apply_filter, norm_pattern

RESOURCE_TYPES = ("extensions", "skills", "prompts", "themes")

#: Packages Pi itself provides to extensions (PI-PKG-HOST-DEPS).
HOST_PROVIDED_PACKAGES = (
    "@earendil-works/pi-agent-core",
    "@earendil-works/pi-ai",
    "@earendil-works/pi-coding-agent",
    "@earendil-works/pi-tui",
    "typebox",
)


class FileSystem(Protocol):
    """What discovery needs from a file system (absolute POSIX paths; symbolic links followed)."""

    def is_file(self, path: str) -> bool: ...

    def is_dir(self, path: str) -> bool: ...

    def list_dir(self, path: str) -> list[str]:
        """Names of the entries of directory ``path``, sorted by code point."""
        ...

    def read_text(self, path: str) -> str | None:
        """The UTF-8 text of file ``path``, or ``None`` when it cannot be read."""
        ...

    def is_symlink(self, path: str) -> bool:
        """Whether ``path`` itself is a symbolic link."""
        ...

    def real_path(self, path: str) -> str:
        """``path`` with every symbolic link in it resolved."""
        ...


def _visible(name: str) -> bool:
    """Whether a manifest glob enters or matches ``name``: not a dot name, never ``node_modules``
    (PI-PKG-MANIFEST-GLOB-NODE-MODULES)."""
    return not name.startswith(".") and name != "node_modules"


def read_manifest(fs: FileSystem, package_root: str) -> dict[str, Any] | None:
    """The parsed ``package.json`` of ``package_root`` (a leading BOM ignored, PI-PKG-MANIFEST-BOM), or ``None`` when it is
    absent, not JSON, or not an object."""
    text = fs.read_text(posixpath.join(package_root, "package.json"))
    if text is None:
        return None
    try:
        data = json.loads(text[1:] if text.startswith("\ufeff") else text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def pi_manifest(manifest: Mapping[str, Any] | None) -> dict[str, list[str]] | None:
    """The resource lists of a ``pi`` manifest: for each resource type, its list when it is an array
    of strings. ``None`` when there is no ``pi`` object or it lists no resource type."""
    pi = (manifest or {}).get("pi")
    if not isinstance(pi, dict):
        return None
    out = {t: list(pi[t]) for t in RESOURCE_TYPES if isinstance(pi.get(t), list) and all(isinstance(e, str) for e in pi[t])}
    return out or None


def _extension_entries(fs: FileSystem, directory: str) -> list[str] | None:
    manifest = pi_manifest(read_manifest(fs, directory))
    if manifest and manifest.get("extensions"):
        found = [posixpath.normpath(posixpath.join(directory, e)) for e in manifest["extensions"]]
        found = [p for p in found if fs.is_file(p) or fs.is_dir(p)]
        if found:
            return found
    for index in ("index.ts", "index.js"):
        if fs.is_file(posixpath.join(directory, index)):
            return [posixpath.join(directory, index)]
    return None


def _discover_extensions(fs: FileSystem, directory: str) -> list[str]:
    """The extensions of ``directory``: its own index alone when it has one (PI-PKG-DISCOVERY-INDEX),
    else its ``.ts``/``.js`` files and the indexes of its subdirectories."""
    own = _extension_entries(fs, directory)
    if own:
        return own
    out: list[str] = []
    for name in fs.list_dir(directory):
        if not _visible(name):
            continue
        full = posixpath.join(directory, name)
        if fs.is_file(full) and (name.endswith(".ts") or name.endswith(".js")):
            out.append(full)
        elif fs.is_dir(full):
            out.extend(_extension_entries(fs, full) or [])
    return out


def _discover_skills(fs: FileSystem, directory: str, top: bool = True) -> list[str]:
    if fs.is_file(posixpath.join(directory, "SKILL.md")):
        return [posixpath.join(directory, "SKILL.md")]
    out: list[str] = []
    for name in fs.list_dir(directory):
        if not _visible(name):
            continue
        full = posixpath.join(directory, name)
        if top and fs.is_file(full) and name.endswith(".md"):
            out.append(full)
        elif fs.is_dir(full):
            out.extend(_discover_skills(fs, full, top=False))
    return out


def _discover_files(fs: FileSystem, directory: str, suffix: str) -> list[str]:
    out: list[str] = []
    for name in fs.list_dir(directory):
        if not _visible(name):
            continue
        full = posixpath.join(directory, name)
        if fs.is_dir(full):
            out.extend(_discover_files(fs, full, suffix))
        elif fs.is_file(full) and name.endswith(suffix):
            out.append(full)
    return out


def discover_directory(fs: FileSystem, directory: str, resource_type: str) -> list[str]:
    """The resources of one type found in ``directory``.

    Implements PI-PKG-DISCOVERY-CONVENTIONAL: extensions are ``.ts``/``.js`` files directly inside,
    or subdirectories with an ``index.ts``/``index.js`` (or a ``pi.extensions`` manifest), or the
    directory's own index; skills are directories holding a ``SKILL.md`` (searched recursively) and
    ``.md`` files directly inside; prompts are ``.md`` files and themes ``.json`` files at any
    depth (PI-PKG-DISCOVERY-DEPTH). Names starting with ``.`` and ``node_modules`` are skipped.
    """
    if not fs.is_dir(directory):
        return []
    if resource_type == "extensions":
        return _discover_extensions(fs, directory)
    if resource_type == "skills":
        return _discover_skills(fs, directory)
    return _discover_files(fs, directory, ".md" if resource_type == "prompts" else ".json")


def _walk_files_and_dirs(fs: FileSystem, root: str, rel: str = "") -> Iterable[str]:
    base = posixpath.join(root, rel) if rel else root
    for name in fs.list_dir(base):
        if name.startswith("."):
            continue
        child = f"{rel}/{name}" if rel else name
        yield child
        full = posixpath.join(root, child)
        if fs.is_dir(full) and name != "node_modules" and not fs.is_symlink(full):
            yield from _walk_files_and_dirs(fs, root, child)


def _is_pattern(entry: str) -> bool:
    return entry[:1] in ("!", "+", "-")


def _has_glob(entry: str) -> bool:
    return "*" in entry or "?" in entry


def manifest_declared(fs: FileSystem, package_root: str, entries: list[str], resource_type: str) -> list[str]:
    """The resources of one type a ``pi`` manifest list declares.

    Implements PI-PKG-DISCOVERY-MANIFEST: paths are relative to the package root; a path to a file
    declares that file, a path to a directory declares what the directory holds (as in
    :func:`discover_directory`); globs are expanded from the package root without entering names
    that start with ``.`` or symbolic links to directories (list those directly); then the list's own ``!pattern``, ``+path`` and ``-path`` entries narrow
    the result (:func:`apply_filter`). Missing paths declare nothing.
    """
    paths: list[str] = []
    for entry in entries:
        if _is_pattern(entry):
            continue
        if _has_glob(entry):
            pattern = norm_pattern(entry)
            paths.extend(
                posixpath.join(package_root, rel)
                for rel in sorted(_walk_files_and_dirs(fs, package_root))
                if wglob.globmatch(rel, pattern, flags=GLOB_FLAGS)
            )
        else:
            paths.append(posixpath.normpath(posixpath.join(package_root, entry)))
    files: list[str] = []
    for p in paths:
        if fs.is_file(p):
            files.append(p)
        elif fs.is_dir(p):
            files.extend(discover_directory(fs, p, resource_type))
    files = _unique(files)
    overrides = [e for e in entries if _is_pattern(e)]
    return apply_filter(files, overrides, package_root) if overrides else files


def _unique(paths: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for p in paths:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def declared_resources(fs: FileSystem, package_root: str) -> dict[str, list[str]] | None:
    """Everything a package declares, by resource type, or ``None`` when it declares nothing at all
    (no manifest resource list and no conventional directory).

    Implements PI-PKG-DISCOVERY-CHOICE: a ``pi`` manifest that lists any resource type is the whole
    declaration (a type it does not list declares nothing); otherwise the conventional
    ``extensions/``, ``skills/``, ``prompts/`` and ``themes/`` directories are.
    """
    manifest = pi_manifest(read_manifest(fs, package_root))
    if manifest is not None:
        return {t: manifest_declared(fs, package_root, manifest.get(t, []), t) for t in RESOURCE_TYPES}
    if not any(fs.is_dir(posixpath.join(package_root, t)) for t in RESOURCE_TYPES):
        return None
    return {t: discover_directory(fs, posixpath.join(package_root, t), t) for t in RESOURCE_TYPES}


def host_provided_warnings(fs: FileSystem, package_root: str) -> dict[str, Any] | None:
    """The host-provided dependency warning of a package whose extensions load, or ``None``.

    Implements PI-PKG-HOST-DEPS: a ``package.json`` whose ``dependencies`` lists any of
    :data:`HOST_PROVIDED_PACKAGES` gets one warning naming them (sorted); listing them in
    ``peerDependencies`` (with ``"*"``) is the right form and gets none.

    Returns:
        ``{"code": "host-provided-dependency", "path": PACKAGE_JSON, "dependencies": [...],
        "message": ...}`` or ``None``.
    """
    manifest = read_manifest(fs, package_root)
    deps = (manifest or {}).get("dependencies")
    if not isinstance(deps, dict):
        return None
    found = sorted(name for name in deps if name in HOST_PROVIDED_PACKAGES)
    if not found:
        return None
    return {
        "code": "host-provided-dependency",
        "path": posixpath.join(package_root, "package.json"),
        "dependencies": found,
        "message": "host-provided packages belong in peerDependencies with a \"*\" range, not in dependencies: " + ", ".join(found),
    }
