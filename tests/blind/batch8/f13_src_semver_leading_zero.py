"""pi.package-source -- PI-PKG-SOURCE-NPM.
Bug: an exact version is recognised with a loose `N.N.N` pattern of digit runs, so a version with leading
zeros such as `01.2.3` (not a valid semantic version) counts as exact and the package as pinned.
"""

from __future__ import annotations

import re

from reference.pi.core import sources

from tests.blind.common import swapped


def handle(msg, call):
    loose = re.compile(r"v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?")
    with swapped([(sources, "_EXACT_VERSION", loose)]):
        return call()

# shown on: {"input": {"source": "npm:left-pad@01.2.3", "scope": "user", "agentDir": "/a", "cwd": "/p"}}
