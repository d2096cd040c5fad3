"""profiles.resolve -- PROF-REF-SESSION.
Bug: with a trusted project a bare session name is looked up in the project only, so a name that only a global profile has is reported missing instead of falling back to it."""

from reference.profiles.core import refs
from reference.profiles.core.types import ProfileRef
from tests.blind.common import everywhere, swapped

_orig = refs.session_ref_candidates


def _candidates(text, project_available):
    found = _orig(text, project_available)
    if found and project_available and isinstance(text, str) and not text.startswith(("global:", "project:")):
        return [ProfileRef("project", text)]
    return found


def handle(msg, call):
    with swapped(everywhere(refs.session_ref_candidates, _candidates)):
        return call()
