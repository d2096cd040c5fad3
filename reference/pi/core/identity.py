"""Package identity: the key under which a package loads once (Pi's docs "Pi Packages"; PI-DECISION-PACKAGES)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from reference.pi.core.sources import PackageSource


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
