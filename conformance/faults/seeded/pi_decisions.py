"""One seeded fault for each pi decision clause that states what the goldens already showed but no
clause said (package sources, discovery, deltas; credentials and classifier usage). Each row
rewrites one text of the function implementing its clause so that it breaks that clause; a case
citing the clause must catch it."""

from __future__ import annotations

from conformance.faults.runner import rewrites

MANIFEST = "reference.pi.core.manifest"
SCOPE = "reference.pi.core.scope"
SOURCES = "reference.pi.core.sources"

_PKG = [
    ("PI-PKG-SOURCE-HOME", f"{SOURCES}:resolve_local_path",
     'if home is not None and (p == "~" or p.startswith("~/")):',
     'if False:'),
    ("PI-PKG-SOURCE-REF-FIRST-AT", f"{SOURCES}:_split_ref",
     'at = path_with_ref.find("@")',
     'at = path_with_ref.rfind("@")'),
    ("PI-PKG-SOURCE-REPO-URL", f"{SOURCES}:parse_git_source",
     'repo = f"git@{host}:{path}"',
     'repo = f"https://{host}/{path.lstrip(\'/\')}"'),
    ("PI-PKG-DISCOVERY-DEPTH", f"{MANIFEST}:_discover_files",
     'out.extend(_discover_files(fs, full, suffix))',
     'pass'),
    ("PI-PKG-DELTA-RECORDS", f"{SCOPE}:resolve_packages",
     'owner[t][p] = decl',
     'pass'),
]

FAULTS = rewrites("pi", "pkg", _PKG)
