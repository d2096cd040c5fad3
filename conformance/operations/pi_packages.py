"""Operations of Pi packages: source parsing and resource resolution (Pi's docs "Pi Packages", PI-DECISION-PACKAGES).

Both map onto Pi's package manager: ``pi.package-source`` onto parsing a settings source and its
identity, ``pi.packages-resolve`` onto resolving the ``packages`` of personal and project settings
into the resources that load, with packages found where Pi installs them (nothing is installed).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from conformance.operations.base import OpModel, operation

ABSOLUTE = "^/"
"""The pattern of an absolute POSIX path: what ``pi.package-source``'s paths must match."""


class PackageSourceInput(OpModel):
    """A source as written in a settings file.

    ``scope`` says which settings file holds it: ``user`` (``AGENT/settings.json``) or ``project``
    (``CWD/.pi/settings.json``); a relative local path resolves from that file's directory.
    ``agentDir``, ``cwd`` and ``home`` are absolute POSIX paths (no file is read); the model
    refuses any other (``""`` and relative paths included, revision 2), since an implementation
    would resolve them from its own working directory.
    """

    source: str
    scope: Literal["user", "project"] = "user"
    agentDir: str = Field(default="/home/user/.pi/agent", pattern=ABSOLUTE)
    cwd: str = Field(default="/work/project", pattern=ABSOLUTE)
    home: str | None = Field(default=None, pattern=ABSOLUTE)


class PackageSourceOutput(OpModel):
    """The parsed source. Fields that do not apply to its ``type`` are ``null``."""

    type: Literal["npm", "git", "local"]
    identity: str
    pinned: bool
    name: str | None = None
    version: str | None = None
    host: str | None = None
    path: str | None = None
    ref: str | None = None
    repo: str | None = None
    localPath: str | None = None


class SettingsPackages(OpModel):
    """What one settings file declares.

    Attributes:
        packages: source strings or objects ``{source, extensions?, skills?, prompts?, themes?,
            autoload?}`` (checked by the implementation).
        extensions, skills, prompts, themes: the settings-level resource lists beside
            ``packages`` (revision 2): paths resolved from the settings file's directory (a
            file, or a folder read as package discovery reads it), and globs, ``!pattern``,
            ``+path`` and ``-path`` entries that filter them (PI-DECISION-PACKAGES order). ``null``: none.
    """

    packages: list[Any] = []
    extensions: list[str] | None = None
    skills: list[str] | None = None
    prompts: list[str] | None = None
    themes: list[str] | None = None


class PackagesResolveInput(OpModel):
    """Resolve the packages of both settings files over the case's tree.

    ``agentDir`` and ``cwd`` are paths relative to the tree root; ``trusted`` is whether project
    trust has been granted.
    """

    agentDir: str
    cwd: str
    trusted: bool
    home: str | None = None
    personalSettings: SettingsPackages = SettingsPackages()
    projectSettings: SettingsPackages = SettingsPackages()


class PackageRecord(OpModel):
    """One declaration and what became of it (``status``: ``loaded``, ``not-installed``,
    ``missing``, ``replaced``, ``duplicate``)."""

    source: str
    scope: Literal["user", "project"]
    identity: str
    type: Literal["npm", "git", "local"]
    status: str
    root: str | None


class ResourceRecord(OpModel):
    """One resource, with the declaration that decided it.

    Attributes:
        path: the resource's absolute path (``<root>`` for the tree).
        source: the package source as written, or ``null`` for a settings-level list.
        scope: the settings file: ``user`` or ``project``.
        origin: ``package`` (a ``packages`` entry) or ``settings`` (a settings-level list).
    """

    path: str
    source: str | None
    scope: Literal["user", "project"]
    origin: Literal["package", "settings"]


class Resources(OpModel):
    """Loaded resources by type, each list sorted by path."""

    extensions: list[ResourceRecord]
    skills: list[ResourceRecord]
    prompts: list[ResourceRecord]
    themes: list[ResourceRecord]


class PackagesResolveOutput(OpModel):
    """``packages``: project declarations in file order, then personal ones in file order.
    ``resources``: what loads. ``disabled``: what a loaded package or a settings-level list
    declares but does not load (filtered out), each with the first entry that declared it.
    ``warnings``: host-provided dependency warnings (``{code: host-provided-dependency, path,
    dependencies, source, scope, message}``: a package lists a package the host provides among its
    dependencies, PI-PKG-HOST-DEPS), one per package that loads, in load order, with the entry
    in force (the project entry where it replaces or refines a personal one). ``diagnostics``: reserved, currently always empty."""

    packages: list[PackageRecord]
    resources: Resources
    disabled: Resources
    warnings: list[dict[str, Any]]
    diagnostics: list[dict[str, Any]]


class PackageChangelogInput(OpModel):
    """One installed package after an update (edition pi-1.6.0): ``package``, its folder relative to
    the case's tree; ``lastSeenVersion``, the version recorded when its changelog was last looked
    at (``null``: the package was never seen)."""

    package: str
    lastSeenVersion: str | None = None


class PackageChangelogOutput(OpModel):
    """What the next fresh launch does (PI-160-PKG-CHANGELOG-*): ``changelog``, the file the
    package's changelog is read from (absolute), or ``null`` when it has none (no extension loads,
    ``pi.changelogPath`` is ``""``, or no such file inside the package); ``shown``, the versions
    whose entries are shown, in the file's order (``"1.2.0"``); ``recorded``, the version recorded
    as last seen, or ``null`` when the launch records none."""

    changelog: str | None
    shown: list[str]
    recorded: str | None


PACKAGE_SOURCE = operation(
    "pi.package-source",
    input=PackageSourceInput,
    output=PackageSourceOutput,
    summary="Parse one package source (npm, git, URL, local path) and give its identity.",
)

PACKAGES_RESOLVE = operation(
    "pi.packages-resolve",
    input=PackagesResolveInput,
    output=PackagesResolveOutput,
    summary="Resolve personal and project package declarations into the resources that load (PI-DECISION-PACKAGES).",
    uses_tree=True,
)

PACKAGE_CHANGELOG = operation(
    "pi.package-changelog",
    input=PackageChangelogInput,
    output=PackageChangelogOutput,
    summary="The changelog a package shows after an update: pi.changelogPath, versions shown and recorded (pi-1.6.0).",
    uses_tree=True,
)
