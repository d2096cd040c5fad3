"""profiles.resolve -- PROF-REF.
Bug: a bare id in an extends is always looked up among the global profiles, so a project profile extending "base" gets global:base even when project:base exists (or fails when only the project one does)."""

from reference.profiles.core import inherit
from tests.blind.common import swapped

_parse = inherit.parse_ref


def handle(msg, call):
    with swapped([(inherit, "parse_ref", lambda text, scope: _parse(text, "global"))]):
        return call()
