"""Reference handlers of the Pi packages operations."""

from __future__ import annotations

import posixpath

from conformance.adapters.reference import Context, implements
from conformance.adapters.reference.pi_templates import inside_tree, tree_root
from conformance.operations.pi_packages import (
    PackageChangelogInput,
    PackageChangelogOutput,
    PackageSourceInput,
    PackageSourceOutput,
    PackagesResolveInput,
    PackagesResolveOutput,
)
from reference.pi.core.changelog import changelog_update
from reference.pi.core.scope import Layout, resolve_packages
from reference.pi.core.sources import parse_source
from reference.pi.host.disk import DiskFileSystem


@implements("pi.package-source")
def package_source(inp: PackageSourceInput, ctx: Context) -> PackageSourceOutput:
    layout = Layout(agent_dir=inp.agentDir, cwd=inp.cwd, home=inp.home)
    parsed = parse_source(inp.source, layout.settings_dir(inp.scope), inp.home)
    return PackageSourceOutput(**parsed.to_json())


@implements("pi.packages-resolve")
def packages_resolve(inp: PackagesResolveInput, ctx: Context) -> PackagesResolveOutput:
    root = tree_root(ctx, "pi.packages-resolve")

    def under_root(rel: str | None, field: str) -> str | None:
        return None if rel is None else posixpath.normpath(str(inside_tree(root, rel, field)))

    layout = Layout(agent_dir=under_root(inp.agentDir, "agentDir"), cwd=under_root(inp.cwd, "cwd"),
                    home=under_root(inp.home, "home"))
    def lists(settings) -> dict:
        return {t: getattr(settings, t) for t in ("extensions", "skills", "prompts", "themes")}

    result = resolve_packages(
        DiskFileSystem(), layout, inp.personalSettings.packages, inp.projectSettings.packages, inp.trusted,
        lists(inp.personalSettings), lists(inp.projectSettings),
    )
    return PackagesResolveOutput.model_validate(result.to_json())


@implements("pi.package-changelog")
def package_changelog(inp: PackageChangelogInput, ctx: Context) -> PackageChangelogOutput:
    package_root = posixpath.normpath(posixpath.join(ctx.root or "/", inp.package))
    update = changelog_update(DiskFileSystem(), package_root, inp.lastSeenVersion)
    return PackageChangelogOutput.model_validate(update.to_json())
