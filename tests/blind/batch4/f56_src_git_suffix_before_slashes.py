"""pi.package-source -- PI-PKG-SOURCE-TRAILING-SLASH.
Bug: a trailing ".git" is removed before the trailing slashes, so "https://github.com/o/r.git/" keeps path "o/r.git" (and identity git:github.com/o/r.git)."""

import dataclasses
import re

from reference.pi.core import sources
from reference.text import js_trim
from tests.blind.common import everywhere, swapped

_original = sources.parse_git_source


def _parse(source):
    found = _original(source)
    if found is None:
        return None
    written = js_trim(source)
    if found.ref is not None:
        written = written[: len(written) - len(found.ref) - 1]
    if re.search(r"\.git/+$", written):
        return dataclasses.replace(found, path=found.path + ".git")
    return found


def handle(msg, call):
    with swapped(everywhere(_original, _parse)):
        return call()
