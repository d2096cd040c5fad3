"""pi.package-changelog -- PI-160-PKG-CHANGELOG-HEADINGS.
Bug: an entry's heading is found by a run of `#` followed by space, so a `### 1.3.0` sub-heading
inside an entry is read as an entry of its own.
"""

from __future__ import annotations

import re

from reference.pi.core import changelog

from tests.blind.common import everywhere, swapped

_ANY_LEVEL = re.compile(r"#+\s+\[?(\d+)\.(\d+)\.(\d+)")


def _changelog_versions(text):
    out = []
    for line in text.split("\n"):
        match = _ANY_LEVEL.match(line)
        if match:
            out.append((int(match.group(1)), int(match.group(2)), int(match.group(3))))
    return out


def handle(msg, call):
    with swapped(everywhere(changelog.changelog_versions, _changelog_versions)):
        return call()

# shown on: {"edition": "pi-1.6.0", "input": {"package": "pkg", "lastSeenVersion": "1.0.0"}, "tree": {"pkg/package.json": "{\"name\": \"pkg\", \"version\": \"1.2.0\"}", "pkg/extensions/a.ts": "export default function () {}\n", "pkg/CHANGELOG.md": "# Changelog\n\n## 1.2.0\n\n### 1.1.5 notes\n\n- x\n\n## 1.0.0\n"}}
