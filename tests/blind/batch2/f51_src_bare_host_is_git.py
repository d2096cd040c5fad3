"""pi.package-source -- PI-PKG-SOURCE-LOCAL, PI-PKG-SOURCE-GIT.
Bug: a source that looks like HOST/OWNER/REPO (github.com/o/r, host with a dot) is read as a git source even without the git: prefix."""

import dataclasses
import re

from reference.errors import SpecError
from reference.pi.core import sources
from tests.blind.common import everywhere, swapped

ORIGINAL = sources.parse_source
BARE = re.compile(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+/[^/]+/.+")


def parse_source(source, base_dir, home=None):
    text = source.strip() if isinstance(source, str) else source
    if isinstance(text, str) and BARE.fullmatch(text):
        try:
            parsed = sources.parse_git_source("git:" + text)
        except SpecError:
            parsed = None
        if parsed is not None:
            return dataclasses.replace(parsed, source=source)
    return ORIGINAL(source, base_dir, home)


def handle(msg, call):
    with swapped(everywhere(ORIGINAL, parse_source)):
        return call()
