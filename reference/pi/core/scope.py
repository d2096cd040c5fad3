"""Package declarations across scopes (Pi's docs "Pi Packages"; PI-DECISION-PACKAGES): entries, trust,
project over personal, duplicates, install layout, and the whole resolution. Pure: package trees
are read only through the caller's :class:`~reference.pi.core.manifest.FileSystem`, and nothing is
installed."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from reference.errors import SpecError
from reference.pi.core.filters import apply_delta, apply_filter
from reference.pi.core.manifest import RESOURCE_TYPES, FileSystem, declared_resources, discover_directory, host_provided_warnings
from reference.pi.core.sources import PackageSource, parse_source, resolve_local_path

#: The project's configuration directory, relative to the working directory.
PROJECT_CONFIG_DIR = ".pi"


@dataclass
class Declaration:
    """One entry of a ``packages`` list.

    Attributes:
        scope: ``"user"`` (personal settings) or ``"project"``.
        index: position in its list.
        source: the source string.
        filters: per resource type, the filter list, or ``None`` when omitted.
        autoload: the entry's ``autoload`` (default ``True``).
    """

    scope: str
    index: int
    source: str
    filters: dict[str, list[str] | None]
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
        return Declaration(scope, index, entry, {t: None for t in RESOURCE_TYPES})
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
    return Declaration(scope, index, source, filters, autoload)


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
        declarations and ``CWD/.pi`` for project ones (a decision Pi's docs leave to the
        implementation, kept equal to Pi's layout). Nothing is installed here: a package missing
        from its place is reported ``not-installed``.
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
    disabled: dict[str, dict[str, dict[str, Any]]] = field(default_factory=lambda: {t: {} for t in RESOURCE_TYPES})
    warnings: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[dict[str, Any]] = field(default_factory=list)
    order: list[tuple[int, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain data; ``packages`` are given project declarations first, each list in file order;
        ``disabled`` holds the declared paths that do not load, each with the first entry that
        declared it."""
        ranked = sorted(zip(self.order, range(len(self.packages))))
        off = {t: sorted(p for p in self.disabled[t] if p not in self.resources[t]) for t in RESOURCE_TYPES}
        return {
            "packages": [self.packages[i] for _, i in ranked],
            "resources": {t: [self.resources[t][p] for p in sorted(self.resources[t])] for t in RESOURCE_TYPES},
            "disabled": {t: [self.disabled[t][p] for p in off[t]] for t in RESOURCE_TYPES},
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
    over it, both found at the personal entry's place: see :func:`apply_delta`, PI-PKG-DELTA-RECORDS) and PI-PKG-DUPLICATE (a second declaration of one identity in the same settings file is
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


def _declared(fs: FileSystem, root: str) -> tuple[dict[str, list[str]], bool]:
    """Declared resources of a package root, and whether filters apply to them.

    Implements PI-PKG-LOCAL-FILE: a local source naming a file declares that one extension, and its
    entry's filters apply to it as to any package (PI-PKG-FILTER-EMPTY: ``extensions: []`` loads none);
    a directory follows package discovery, and one that declares nothing declares itself as a
    single extension directory. Implements PI-PKG-LOCAL-DIR-OBJECT: that holds whether the entry
    is a source string or an object, whose filters then apply to it as to any declared resource.
    """
    found = None if fs.is_file(root) else declared_resources(fs, root)
    if found is None:
        return {t: ([root] if t == "extensions" else []) for t in RESOURCE_TYPES}, True
    return found, True


def _own_selection(declared: dict[str, list[str]], decl: Declaration, root: str) -> dict[str, set[str]]:
    """What one entry enables on its own: its filters, or with ``autoload: false`` its filters as a
    delta over nothing."""
    if decl.autoload:
        return {t: set(apply_filter(declared[t], decl.filters[t], root)) for t in RESOURCE_TYPES}
    return {t: apply_delta(declared[t], set(), decl.filters[t], root)[0] for t in RESOURCE_TYPES}


def resolve_packages(
    fs: FileSystem,
    layout: Layout,
    personal_entries: list[Any],
    project_entries: list[Any],
    trusted: bool,
    personal_lists: dict[str, list[str] | None] | None = None,
    project_lists: dict[str, list[str] | None] | None = None,
) -> Resolution:
    """Resolve the ``packages`` of personal and project settings, and their settings-level
    resource lists (``personal_lists``/``project_lists``: type -> entries, see
    :func:`settings_resources`), into the resources that load.

    Combines :func:`select_declarations`, :func:`declared_resources`, :func:`apply_filter`,
    :func:`apply_delta` and :func:`host_provided_warnings`. A local file source loads as one
    extension; a local directory that declares nothing loads as one extension directory.

    Returns:
        a :class:`Resolution`: ``packages`` (every declaration with its ``status``: ``loaded``,
        ``not-installed``, ``missing``, ``replaced`` or ``duplicate``),
        ``resources`` (per type, each enabled path with the ``source`` and ``scope`` of the entry
        that decided it and its ``origin``, ``package`` or ``settings`` (``source`` ``None``),
        sorted by path; packages first, then project lists, then personal ones: the first entry
        that enables a path loads it (PI-PKG-SETTINGS-ORDER); the project lists are read only when
        ``trusted`` (PI-PKG-SETTINGS-TRUST)), ``disabled`` (the declared paths that do not load,
        same shape), ``warnings`` and ``diagnostics``. Implements PI-PKG-DISABLED-REPORTED.
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
        declared, filtered = _declared(fs, root)
        enabled = _own_selection(declared, base, root) if filtered else {t: set(declared[t]) for t in RESOURCE_TYPES}
        owner = {t: {p: base for p in enabled[t]} for t in RESOURCE_TYPES}
        if base_decl is not None and filtered:
            for t in RESOURCE_TYPES:
                enabled[t], touched = apply_delta(declared[t], enabled[t], decl.filters[t], root)
                for p in touched:
                    owner[t][p] = decl
        for t in RESOURCE_TYPES:
            for p in declared[t]:
                who = owner[t].get(p, base)
                _add(result, t, p, p in enabled[t], {"path": p, "source": who.source, "scope": who.scope, "origin": "package"})
        if enabled["extensions"] and fs.is_dir(root):
            warning = host_provided_warnings(fs, root)
            if warning is not None:
                result.warnings.append({**warning, "source": decl.source, "scope": decl.scope})
    for scope, lists in (("project", project_lists if trusted else None), ("user", personal_lists)):
        for t in RESOURCE_TYPES:
            entries = (lists or {}).get(t)
            if not entries:
                continue
            declared, enabled = settings_resources(fs, entries, t, layout.settings_dir(scope), layout.home)
            for p in declared:
                _add(result, t, p, p in enabled, {"path": p, "source": None, "scope": scope, "origin": "settings"})
    return result


def _add(result: Resolution, resource_type: str, path: str, enabled: bool, record: dict[str, Any]) -> None:
    """Record one declared resource: the first entry that enables a path loads it; a path no entry
    enables is reported disabled with the first entry that declared it."""
    target = result.resources if enabled else result.disabled
    target[resource_type].setdefault(path, record)


def _is_settings_pattern(entry: str) -> bool:
    return entry[:1] in ("!", "+", "-") or "*" in entry or "?" in entry


def settings_resources(
    fs: FileSystem, entries: list[str], resource_type: str, settings_dir: str, home: str | None = None
) -> tuple[list[str], set[str]]:
    """The resources one settings-level list (``extensions``, ``skills``, ``prompts`` or
    ``themes`` beside ``packages``) declares, and those it enables.

    Implements PI-PKG-SETTINGS-LISTS: a plain entry is a path resolved from the settings file's
    directory (``~`` from ``home``): a file declares itself, a folder what it holds as package
    discovery finds it (:func:`~reference.pi.core.manifest.discover_directory`: nested prompts and
    themes included); a missing path declares nothing. Globs and ``!pattern``, ``+path``,
    ``-path`` entries then filter what the plain entries declared, in the PI-DECISION-PACKAGES order
    (:func:`~reference.pi.core.filters.apply_filter`, relative to the settings file's directory);
    they never add a path no plain entry declared.

    Returns:
        ``(declared, enabled)``: declared paths in entry order, and the enabled subset.
    """
    declared: list[str] = []
    for entry in entries:
        if _is_settings_pattern(entry):
            continue
        path = resolve_local_path(entry, settings_dir, home)
        found = [path] if fs.is_file(path) else discover_directory(fs, path, resource_type)
        declared.extend(p for p in found if p not in declared)
    patterns = [e for e in entries if _is_settings_pattern(e)]
    return declared, set(apply_filter(declared, patterns, settings_dir) if patterns else declared)
