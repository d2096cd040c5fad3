r"""pi.package-source -- PI-PKG-SOURCE-NPM.
Bug: an npm version counts as exact only when it matches /^\d+\.\d+\.\d+$/, so "v1.2.3", "1.0.0-rc.1" and "1.2.3+build" are reported as not pinned."""

import re

from reference.pi.core import sources
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(sources.is_exact_version,
                            lambda v: v is not None and re.fullmatch(r"\d+\.\d+\.\d+", v) is not None)):
        return call()
