"""pi.packages-resolve -- PI-PKG-PATTERN-DOT-SLASH.
Bug: a leading "./" of a settings filter pattern or exact path is kept, so "./prompts/*.md" matches nothing (paths are relative without it)."""

from reference.pi.core import filters
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(filters.norm_pattern, lambda pattern: pattern)):
        return call()
