"""Pi packages: sources, identity, resource discovery, settings filters, scope and trust, and the
host-provided dependency warning (seed 003 "Pi Packages"; note N22).

Paths are POSIX strings. Discovery reads the file system only through a :class:`FileSystem`, so the
rules here stay independent of the disk; :class:`DiskFileSystem` is the thin edge that reads a real
directory tree.

Where packages live (a decision the seed leaves to the implementation, kept equal to Pi's layout):
an npm package ``NAME`` declared in personal settings is installed at
``AGENT/npm/node_modules/NAME``, a git package at ``AGENT/git/HOST/PATH``; project declarations use
``CWD/.pi/npm/node_modules/NAME`` and ``CWD/.pi/git/HOST/PATH``. Nothing is installed here: a
package missing from its place is reported ``not-installed``.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Protocol
from urllib.parse import urlsplit

from wcmatch import glob as wglob

from reference.errors import SpecError

RESOURCE_TYPES = ("extensions", "skills", "prompts", "themes")

#: Packages Pi itself provides to extensions (PI-PKG-HOST-DEPS).
HOST_PROVIDED_PACKAGES = (
    "@earendil-works/pi-agent-core",
    "@earendil-works/pi-ai",
    "@earendil-works/pi-coding-agent",
    "@earendil-works/pi-tui",
    "typebox",
)

PROJECT_CONFIG_DIR = ".pi"
_GLOB_FLAGS = wglob.GLOBSTAR | wglob.BRACE


# --------------------------------------------------------------------------------------------------
# File system edge


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


class DiskFileSystem:
    """:class:`FileSystem` over the real disk."""

    def is_file(self, path: str) -> bool:
        return os.path.isfile(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def list_dir(self, path: str) -> list[str]:
        try:
            return sorted(os.listdir(path))
        except OSError:
            return []

    def is_symlink(self, path: str) -> bool:
        return os.path.islink(path)

    def read_text(self, path: str) -> str | None:
        try:
            with open(path, encoding="utf-8") as fh:
                return fh.read()
        except (OSError, UnicodeDecodeError):
            return None


# --------------------------------------------------------------------------------------------------
# Sources and identity


@dataclass(frozen=True)
class PackageSource:
    """A parsed package source.

    Attributes:
        type: ``"npm"``, ``"git"`` or ``"local"``.
        source: the source as written.
        name, version: npm package name and version or range/tag (``None`` when absent).
        host, path, ref, repo: git host, repository path (no ``.git``), ref and repository URL.
        localPath: absolute resolved path of a local source.
        pinned: whether updates keep it where it is (an exact npm version, a git ref).
    """

    type: str
    source: str
    name: str | None = None
    version: str | None = None
    host: str | None = None
    path: str | None = None
    ref: str | None = None
    repo: str | None = None
    localPath: str | None = None
    pinned: bool = False

    @property
    def identity(self) -> str:
        """See :func:`package_identity`."""
        return package_identity(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "identity": self.identity, "pinned": self.pinned}
        if self.type == "npm":
            out.update(name=self.name, version=self.version)
        elif self.type == "git":
            out.update(host=self.host, path=self.path, ref=self.ref, repo=self.repo)
        else:
            out.update(localPath=self.localPath)
        return out


_EXACT_VERSION = re.compile(
    r"v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(-(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*)?"
    r"(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?"
)
_NPM_SPEC = re.compile(r"(@?[^@]+(?:/[^@]+)?)(?:@(.+))?")
_NPM_NAME = re.compile(r"(@[^/@\s]+/)?[^/@\s]+")
_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_GIT_URL_SCHEME = re.compile(r"^(https?|ssh|git)://", re.IGNORECASE)
_NON_LOCAL_PREFIXES = ("npm:", "git:")


def is_exact_version(version: str | None) -> bool:
    """Whether ``version`` is one exact semantic version (``1.2.3``, ``v1.2.3``, ``1.0.0-rc.1``), as
    opposed to a range (``^1.2.0``) or a tag (``latest``)."""
    return version is not None and _EXACT_VERSION.fullmatch(version.strip()) is not None


def _invalid(source: str, why: str) -> SpecError:
    return SpecError("package-source-invalid", f"package source {source!r}: {why}", path="source")


def parse_npm_source(source: str) -> PackageSource:
    """Parse ``npm:NAME[@VERSION]``.

    Implements PI-PKG-SOURCE-NPM: scoped names (``@scope/name``) are kept whole; an exact version is
    pinned, a range or a tag (or no version) is not.

    Raises:
        SpecError ``package-source-invalid`` when the name is missing or malformed.
    """
    spec = source[len("npm:") :].strip()
    match = _NPM_SPEC.fullmatch(spec)
    if not match or not _NPM_NAME.fullmatch(match.group(1)):
        raise _invalid(source, "expected npm:NAME or npm:NAME@VERSION")
    name, version = match.group(1), match.group(2)
    return PackageSource("npm", source, name=name, version=version, pinned=is_exact_version(version))


def _split_ref(path_with_ref: str) -> tuple[str, str | None]:
    at = path_with_ref.find("@")
    if at < 0:
        return path_with_ref, None
    path, ref = path_with_ref[:at], path_with_ref[at + 1 :]
    if not path or not ref:
        return path_with_ref, None
    return path, ref


def parse_git_source(source: str) -> PackageSource | None:
    """Parse a git source, or give ``None`` when ``source`` is not written as one.

    Implements PI-PKG-SOURCE-GIT and PI-PKG-SOURCE-URL. Written as git: ``git:HOST/PATH[@REF]``
    (``HOST`` has a dot or is ``localhost``), ``git:git@HOST:PATH[@REF]``, ``git:`` followed by a URL,
    or a bare ``https://``, ``http://``, ``ssh://`` or ``git://`` URL. ``PATH`` loses leading slashes
    and a trailing ``.git`` and needs at least two segments; a ref is pinned.

    Implements PI-PKG-SOURCE-INVALID: a source written as git that does not parse (a ``git:``
    prefix or a git URL scheme with no usable host and repository path) is refused, never read as
    a local path.

    Raises:
        SpecError ``package-source-invalid`` for such a source.
    """
    text = source.strip()
    has_prefix = text.startswith("git:") and not _GIT_URL_SCHEME.match(text)
    url = text[4:].strip() if has_prefix else text
    if not has_prefix and not _GIT_URL_SCHEME.match(url):
        return None
    scp = re.fullmatch(r"git@([^:/]+):(.+)", url)
    if scp:
        host, path_ref = scp.group(1), scp.group(2)
        path, ref = _split_ref(path_ref)
        repo = f"git@{host}:{path}"
    elif "://" in url:
        if not _GIT_URL_SCHEME.match(url):
            raise _invalid(source, "only https, http, ssh and git URLs are git sources")
        parts = urlsplit(url)
        host = parts.hostname or ""
        path, ref = _split_ref(parts.path.lstrip("/"))
        repo = url if ref is None else url[: url.rfind("@" + ref)]
    else:
        slash = url.find("/")
        if slash < 0:
            raise _invalid(source, "expected git:HOST/OWNER/REPO")
        host = url[:slash]
        if "." not in host and host != "localhost":
            raise _invalid(source, f"{host!r} is not a host name")
        path, ref = _split_ref(url[slash + 1 :])
        repo = f"https://{host}/{path}"
    path = path.lstrip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")]
    segments = path.split("/")
    if not host or len(segments) < 2 or any(s in ("", "..") for s in segments) or "\\" in path:
        raise _invalid(source, "expected a repository path with an owner and a name")
    return PackageSource("git", source, host=host.lower(), path=path, ref=ref, repo=repo, pinned=ref is not None)


def resolve_local_path(path: str, base_dir: str, home: str | None = None) -> str:
    """``path`` made absolute: ``~`` and ``~/...`` against ``home`` (when given), a relative path
    against ``base_dir``; the result is normalised (``.`` and ``..`` folded)."""
    p = path.strip()
    if home is not None and (p == "~" or p.startswith("~/")):
        p = posixpath.join(home, p[2:]) if p != "~" else home
    if not posixpath.isabs(p):
        p = posixpath.join(base_dir, p)
    return posixpath.normpath(p)


def parse_source(source: str, base_dir: str, home: str | None = None) -> PackageSource:
    """Parse a package source as declared in a settings file whose directory is ``base_dir``.

    Implements PI-PKG-SOURCE-LOCAL: anything that is neither ``npm:`` nor written as git (see
    :func:`parse_git_source`) is a local path, resolved from the directory of the settings file that
    holds it; ``github.com/owner/repo`` or ``git@host:owner/repo`` without ``git:`` are local paths.

    Raises:
        SpecError ``package-source-invalid`` for an empty source or a malformed npm/git source.
    """
    if not isinstance(source, str) or not source.strip():
        raise SpecError("package-source-invalid", "package source must be a non-empty string", path="source")
    text = source.strip()
    if text.startswith("npm:"):
        return parse_npm_source(text)
    git = parse_git_source(text)
    if git is not None:
        return git
    if _URL_SCHEME.match(text):
        raise _invalid(source, "only https, http, ssh and git URLs are package sources")
    return PackageSource("local", source, localPath=resolve_local_path(text, base_dir, home))


def package_identity(source: PackageSource) -> str:
    """The identity under which a package loads once.

    Implements PI-PKG-IDENTITY: npm packages by name (``npm:NAME``, version ignored), git packages by
    host and repository path without the ref (``git:HOST/PATH``, so https, ssh and ``git:`` forms of
    one repository are one package), local packages by resolved absolute path (``local:PATH``).
    """
    if source.type == "npm":
        return f"npm:{source.name}"
    if source.type == "git":
        return f"git:{source.host}/{source.path}"
    return f"local:{source.localPath}"


# --------------------------------------------------------------------------------------------------
# Discovery


def _visible(name: str) -> bool:
    return not name.startswith(".") and name != "node_modules"


def read_manifest(fs: FileSystem, package_root: str) -> dict[str, Any] | None:
    """The parsed ``package.json`` of ``package_root`` (a leading BOM ignored), or ``None`` when it is
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
    depth. Names starting with ``.`` and ``node_modules`` are skipped.
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


def _norm_pattern(pattern: str) -> str:
    return pattern[2:] if pattern.startswith("./") else pattern


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
            pattern = _norm_pattern(entry)
            paths.extend(
                posixpath.join(package_root, rel)
                for rel in sorted(_walk_files_and_dirs(fs, package_root))
                if wglob.globmatch(rel, pattern, flags=_GLOB_FLAGS)
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


# --------------------------------------------------------------------------------------------------
# Filters (N22)


def _candidates(path: str, package_root: str) -> list[str]:
    rel = posixpath.relpath(path, package_root)
    names = [rel, posixpath.basename(path), path]
    if posixpath.basename(path) == "SKILL.md":
        parent = posixpath.dirname(path)
        names += [posixpath.relpath(parent, package_root), posixpath.basename(parent), parent]
    return names


def matches_glob(path: str, pattern: str, package_root: str) -> bool:
    """Whether ``pattern`` (a glob) matches ``path`` by its path relative to the package root, its
    file name or its absolute path; a skill's ``SKILL.md`` also matches through its directory.

    Implements PI-PKG-PATTERN-DOT-SLASH: a leading ``./`` in a pattern or exact path is ignored, as
    in manifest paths.
    """
    pattern = _norm_pattern(pattern)
    return any(wglob.globmatch(c, pattern, flags=_GLOB_FLAGS) for c in _candidates(path, package_root))


def matches_exact(path: str, target: str, package_root: str) -> bool:
    """Whether ``target`` (a leading ``./`` ignored) names ``path`` exactly: its path relative to the
    package root or its absolute path; a skill's ``SKILL.md`` also through its directory."""
    target = posixpath.normpath(_norm_pattern(target))
    rel = posixpath.relpath(path, package_root)
    if target in (rel, path):
        return True
    if posixpath.basename(path) == "SKILL.md":
        parent = posixpath.dirname(path)
        return target in (posixpath.relpath(parent, package_root), parent)
    return False


def _split_filter(patterns: list[str]) -> tuple[list[str], list[str], list[str], list[str]]:
    includes, excludes, force_in, force_out = [], [], [], []
    for p in patterns:
        if p.startswith("+"):
            force_in.append(p[1:])
        elif p.startswith("-"):
            force_out.append(p[1:])
        elif p.startswith("!"):
            excludes.append(p[1:])
        else:
            includes.append(p)
    return includes, excludes, force_in, force_out


def apply_filter(declared: list[str], patterns: list[str] | None, package_root: str) -> list[str]:
    """The declared resources a settings filter (or a manifest's own patterns) keeps.

    Implements PI-PKG-FILTER-OMITTED (``None``: everything declared), PI-PKG-FILTER-EMPTY (``[]``:
    nothing), and PI-PKG-FILTER-ORDER (N22): first the plain globs (none: everything declared), then
    ``!pattern`` removes glob matches, then ``+path`` adds back one exact declared path, then
    ``-path`` removes one exact path; so ``+`` beats ``!`` and ``-`` beats ``+``. Implements
    PI-PKG-FILTER-NARROW: only declared paths are ever kept.

    Returns:
        the kept paths, in declaration order.
    """
    if patterns is None:
        return list(declared)
    if not patterns:
        return []
    includes, excludes, force_in, force_out = _split_filter(patterns)
    kept = [p for p in declared if not includes or any(matches_glob(p, g, package_root) for g in includes)]
    kept = [p for p in kept if not any(matches_glob(p, g, package_root) for g in excludes)]
    for p in declared:
        if p not in kept and any(matches_exact(p, t, package_root) for t in force_in):
            kept.append(p)
    kept = [p for p in kept if not any(matches_exact(p, t, package_root) for t in force_out)]
    return [p for p in declared if p in kept]


def apply_delta(declared: list[str], base: set[str], patterns: list[str] | None, package_root: str) -> tuple[set[str], set[str]]:
    """Apply an ``autoload: false`` entry's filter as a delta over ``base`` (the resources enabled
    without it).

    Implements PI-PKG-AUTOLOAD-DELTA: an omitted or empty list changes nothing; otherwise, in the N22
    order, plain globs enable their declared matches, ``!pattern`` disables matches, ``+path``
    enables one exact declared path, ``-path`` disables one. Only declared paths are touched.

    Returns:
        ``(enabled, touched)``: the enabled paths, and those whose state the delta decided.
    """
    enabled = set(base)
    touched: set[str] = set()
    if not patterns:
        return enabled, touched
    includes, excludes, force_in, force_out = _split_filter(patterns)
    steps = (
        (includes, matches_glob, True),
        (excludes, matches_glob, False),
        (force_in, matches_exact, True),
        (force_out, matches_exact, False),
    )
    for targets, match, state in steps:
        for p in declared:
            if any(match(p, t, package_root) for t in targets):
                touched.add(p)
                (enabled.add if state else enabled.discard)(p)
    return enabled, touched


# --------------------------------------------------------------------------------------------------
# Resolution


@dataclass
class Declaration:
    """One entry of a ``packages`` list.

    Attributes:
        scope: ``"user"`` (personal settings) or ``"project"``.
        index: position in its list.
        source: the source string.
        filters: per resource type, the filter list, or ``None`` when omitted.
        object_form: whether the entry was written as an object.
        autoload: the entry's ``autoload`` (default ``True``).
    """

    scope: str
    index: int
    source: str
    filters: dict[str, list[str] | None]
    object_form: bool
    autoload: bool = True


def parse_declaration(entry: Any, scope: str, index: int) -> Declaration:
    """Read one ``packages`` entry: a source string, or ``{source, extensions?, skills?, prompts?,
    themes?, autoload?}``.

    Implements PI-PKG-ENTRY-INVALID: a malformed entry is refused, never half-read.

    Raises:
        SpecError ``package-entry-invalid`` naming the field (``packages[2].skills``).
    """
    at = f"packages[{index}]"
    if isinstance(entry, str):
        return Declaration(scope, index, entry, {t: None for t in RESOURCE_TYPES}, False)
    if not isinstance(entry, dict):
        raise SpecError("package-entry-invalid", f"{at} must be a source string or an object", path=at)
    source = entry.get("source")
    if not isinstance(source, str):
        raise SpecError("package-entry-invalid", f"{at}.source must be a string", path=f"{at}.source")
    filters: dict[str, list[str] | None] = {}
    for t in RESOURCE_TYPES:
        value = entry.get(t)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise SpecError("package-entry-invalid", f"{at}.{t} must be an array of strings", path=f"{at}.{t}")
        filters[t] = value
    autoload = entry.get("autoload", True)
    if not isinstance(autoload, bool):
        raise SpecError("package-entry-invalid", f"{at}.autoload must be a boolean", path=f"{at}.autoload")
    return Declaration(scope, index, source, filters, True, autoload)


@dataclass(frozen=True)
class Layout:
    """Where settings and installed packages are.

    Attributes:
        agent_dir: Pi's agent directory (personal ``settings.json`` lives here).
        cwd: the project directory (project settings in ``CWD/.pi/settings.json``).
        home: the home directory for ``~`` in local paths, or ``None``.
    """

    agent_dir: str
    cwd: str
    home: str | None = None

    def settings_dir(self, scope: str) -> str:
        return self.agent_dir if scope == "user" else posixpath.join(self.cwd, PROJECT_CONFIG_DIR)

    def install_path(self, source: PackageSource, scope: str) -> str | None:
        """Where an npm or git package of ``scope`` is installed (``None`` for a local source).

        Implements PI-PKG-INSTALL-LAYOUT: ``SETTINGS_DIR/npm/node_modules/NAME`` and
        ``SETTINGS_DIR/git/HOST/PATH``, ``SETTINGS_DIR`` being the agent directory for personal
        declarations and ``CWD/.pi`` for project ones.
        """
        base = self.settings_dir(scope)
        if source.type == "npm":
            return posixpath.join(base, "npm", "node_modules", source.name or "")
        if source.type == "git":
            return posixpath.join(base, "git", source.host or "", source.path or "")
        return None


@dataclass
class Resolution:
    """The outcome of :func:`resolve_packages` (plain data through :meth:`to_json`)."""

    packages: list[dict[str, Any]] = field(default_factory=list)
    resources: dict[str, dict[str, dict[str, Any]]] = field(default_factory=lambda: {t: {} for t in RESOURCE_TYPES})
    warnings: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[dict[str, Any]] = field(default_factory=list)
    order: list[tuple[int, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain data; ``packages`` are given project declarations first, each list in file order."""
        ranked = sorted(zip(self.order, range(len(self.packages))))
        return {
            "packages": [self.packages[i] for _, i in ranked],
            "resources": {t: [self.resources[t][p] for p in sorted(self.resources[t])] for t in RESOURCE_TYPES},
            "warnings": self.warnings,
            "diagnostics": self.diagnostics,
        }


def select_declarations(
    fs: FileSystem, personal: list[Declaration], project: list[Declaration], layout: Layout, trusted: bool, result: Resolution
) -> list[tuple[Declaration, PackageSource, Declaration | None, PackageSource | None]]:
    """Decide which declarations load, recording every declaration in ``result.packages``.

    Implements PI-PKG-TRUST (project declarations are read only after project trust; without it
    they are not read at all),
    PI-PKG-SCOPE-REPLACE (a project entry replaces the personal entry of the same identity),
    (with ``autoload: false`` the project entry is kept together with the personal one, as a delta
    over it: see :func:`apply_delta`) and PI-PKG-DUPLICATE (a second declaration of one identity in the same settings file is
    ignored: the first wins).

    Returns:
        ``(declaration, source, base_declaration, base_source)`` for each package to load, project
        entries first, each list in file order; ``base_*`` is the personal entry a delta applies to.
    """
    if not trusted:
        project = []
    parsed: list[tuple[Declaration, PackageSource]] = []
    for decl in project + personal:
        source = parse_source(decl.source, layout.settings_dir(decl.scope), layout.home)
        parsed.append((decl, source))
    first_by_scope: dict[tuple[str, str], Declaration] = {}
    personal_by_identity: dict[str, tuple[Declaration, PackageSource]] = {}
    project_identities: dict[str, Declaration] = {}
    chosen = []
    for decl, source in parsed:
        key = (decl.scope, source.identity)
        if key in first_by_scope:
            _record(result, decl, source, "duplicate")
            continue
        first_by_scope[key] = decl
        if decl.scope == "user":
            personal_by_identity[source.identity] = (decl, source)
        else:
            project_identities[source.identity] = decl
    for decl, source in parsed:
        if first_by_scope.get((decl.scope, source.identity)) is not decl:
            continue
        if decl.scope == "project":
            base = personal_by_identity.get(source.identity) if not decl.autoload else None
            chosen.append((decl, source, base[0] if base else None, base[1] if base else None))
        else:
            over = project_identities.get(source.identity)
            if over is not None and over.autoload:
                _record(result, decl, source, "replaced")
                continue
            if over is not None:
                # The base of a delta: recorded as loaded where it is, its resources come through
                # the project entry that refines it.
                root, status = _package_root(fs, layout, source, "user")
                _record(result, decl, source, status, root)
                continue
            chosen.append((decl, source, None, None))
    return chosen


def _record(result: Resolution, decl: Declaration, source: PackageSource, status: str, root: str | None = None) -> None:
    result.packages.append(
        {"source": decl.source, "scope": decl.scope, "identity": source.identity, "type": source.type, "status": status, "root": root}
    )
    result.order.append((0 if decl.scope == "project" else 1, decl.index))


def _package_root(fs: FileSystem, layout: Layout, source: PackageSource, scope: str) -> tuple[str | None, str]:
    if source.type == "local":
        path = source.localPath or ""
        if fs.is_file(path) or fs.is_dir(path):
            return path, "loaded"
        return None, "missing"
    path = layout.install_path(source, scope) or ""
    return (path, "loaded") if fs.is_dir(path) else (None, "not-installed")


def _declared(fs: FileSystem, root: str, decl: Declaration) -> tuple[dict[str, list[str]], bool]:
    """Declared resources of a package root, and whether filters apply to them.

    Implements PI-PKG-LOCAL-FILE: a local source naming a file loads that one extension, unfiltered;
    a directory follows package discovery, and one that declares nothing loads as a single
    extension directory (when written as a plain source string).
    """
    if fs.is_file(root):
        return {t: ([root] if t == "extensions" else []) for t in RESOURCE_TYPES}, False
    found = declared_resources(fs, root)
    if found is None:
        return {t: ([root] if t == "extensions" and not decl.object_form else []) for t in RESOURCE_TYPES}, True
    return found, True


def _own_selection(declared: dict[str, list[str]], decl: Declaration, root: str) -> dict[str, set[str]]:
    """What one entry enables on its own: its filters, or with ``autoload: false`` its filters as a
    delta over nothing."""
    if decl.autoload:
        return {t: set(apply_filter(declared[t], decl.filters[t], root)) for t in RESOURCE_TYPES}
    return {t: apply_delta(declared[t], set(), decl.filters[t], root)[0] for t in RESOURCE_TYPES}


def resolve_packages(
    fs: FileSystem, layout: Layout, personal_entries: list[Any], project_entries: list[Any], trusted: bool
) -> Resolution:
    """Resolve the ``packages`` of personal and project settings into the resources that load.

    Combines :func:`select_declarations`, :func:`declared_resources`, :func:`apply_filter`,
    :func:`apply_delta` and :func:`host_provided_warnings`. A local file source loads as one
    extension; a local directory that declares nothing loads as one extension directory.

    Returns:
        a :class:`Resolution`: ``packages`` (every declaration with its ``status``: ``loaded``,
        ``not-installed``, ``missing``, ``replaced`` or ``duplicate``),
        ``resources`` (per type, each enabled path with the ``source`` and ``scope`` of the entry
        that decided it, sorted by path), ``warnings`` and ``diagnostics``.
    Raises:
        SpecError ``package-entry-invalid`` / ``package-source-invalid`` for a malformed entry.
    """
    result = Resolution()
    personal = [parse_declaration(e, "user", i) for i, e in enumerate(personal_entries)]
    project = [parse_declaration(e, "project", i) for i, e in enumerate(project_entries)]
    chosen = select_declarations(fs, personal, project, layout, trusted, result)
    for decl, source, base_decl, base_source in chosen:
        load_source, load_scope = (base_source, "user") if base_source is not None else (source, decl.scope)
        root, status = _package_root(fs, layout, load_source, load_scope)
        _record(result, decl, source, status, root)
        if root is None:
            continue
        base = base_decl or decl
        declared, filtered = _declared(fs, root, base)
        enabled = _own_selection(declared, base, root) if filtered else {t: set(declared[t]) for t in RESOURCE_TYPES}
        owner = {t: {p: base for p in enabled[t]} for t in RESOURCE_TYPES}
        if base_decl is not None and filtered:
            for t in RESOURCE_TYPES:
                enabled[t], touched = apply_delta(declared[t], enabled[t], decl.filters[t], root)
                for p in touched:
                    owner[t][p] = decl
        for t in RESOURCE_TYPES:
            for p in declared[t]:
                if p in enabled[t] and p not in result.resources[t]:
                    who = owner[t].get(p, decl)
                    result.resources[t][p] = {"path": p, "source": who.source, "scope": who.scope}
        if enabled["extensions"] and fs.is_dir(root):
            warning = host_provided_warnings(fs, root)
            if warning is not None:
                result.warnings.append({**warning, "source": decl.source, "scope": decl.scope})
    return result


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
