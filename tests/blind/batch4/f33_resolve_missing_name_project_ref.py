"""profiles.resolve -- PROF-REF-SESSION-MISSING, PROF-REF-SESSION.
Bug: a bare name found in neither scope is reported under the first scope looked in, so with a trusted project it is "project:ID" instead of "global:ID"."""

from reference.profiles.core import inherit, refs, resolve
from tests.blind.common import everywhere, swapped


def _ref(state, name):
    candidates = refs.session_ref_candidates(name, state.project is not None)
    if not candidates:
        return None
    for ref in candidates:
        if inherit.find_profile(state, ref) is not None:
            return ref
    return candidates[0]


def handle(msg, call):
    with swapped(everywhere(resolve.session_profile_ref, _ref)):
        return call()
