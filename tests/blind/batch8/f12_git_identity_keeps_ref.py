"""pi.packages-resolve -- PI-PKG-IDENTITY.
Bug: a git package's identity keeps its ref (`git:HOST/PATH@REF`), so one repository declared at
two refs in the two scopes loads twice instead of once.
"""

from __future__ import annotations

from reference.pi.core import identity

from tests.blind.common import everywhere, swapped


def _package_identity(source):
    if source.type == "git":
        ref = getattr(source, "ref", None)
        return f"git:{source.host}/{source.path}" + (f"@{ref}" if ref else "")
    return _original(source)


_original = identity.package_identity


def handle(msg, call):
    with swapped(everywhere(_original, _package_identity)):
        return call()

# shown on: {"input": {"agentDir": "agent", "cwd": "proj", "trusted": true, "personalSettings": {"packages": ["git:github.com/u/r@v1"]}, "projectSettings": {"packages": ["git:github.com/u/r@v2"]}}, "tree": {"agent/git/github.com/u/r/package.json": "{\"name\": \"r\"}", "agent/git/github.com/u/r/extensions/a.ts": "x", "proj/.pi/git/github.com/u/r/package.json": "{\"name\": \"r\"}", "proj/.pi/git/github.com/u/r/extensions/a.ts": "x"}}
