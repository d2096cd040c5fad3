"""profiles.resolve -- PROF-INHERIT-CYCLE.
Bug: a cycle is looked for only as a profile naming itself (parent == current), so a chain that comes back to an earlier profile (a extends b, b extends a) is expanded until the depth limit and fails with profile-depth instead of profile-cycle."""

from reference.profiles.core import inherit
from reference.profiles.core.types import BuiltProfile, Diagnostic, Layer
from tests.blind.common import everywhere, swapped


def _build(state, ref):
    subject = str(ref)

    def fail(code, message, detail=None):
        return None, Diagnostic("error", code, ref.scope, subject, message, detail)

    current = inherit.find_profile(state, ref)
    if current is None:
        return fail("profile-missing", f"profile {ref} does not exist", "profile")
    layers = [Layer(current.ref, current.body)]
    total = current.size
    while True:
        declared, raw = inherit.extends_of(state, current.ref)
        if not declared:
            return BuiltProfile(ref, tuple(layers)), None
        parent_ref = inherit.parse_ref(raw, current.ref.scope)
        if parent_ref is None:
            return fail("profile-extends", "malformed extends", "malformed")
        if current.ref.scope == "global" and parent_ref.scope == "project":
            return fail("profile-extends", "scope", "scope")
        if parent_ref == current.ref:
            return fail("profile-cycle", "cycle")
        parent = inherit.find_profile(state, parent_ref)
        if parent is None:
            return fail("profile-missing", "parent missing", "parent")
        if len(layers) + 1 > inherit.MAX_LAYERS:
            return fail("profile-depth", "too deep")
        total += parent.size
        if total > inherit.MAX_CHAIN_BYTES:
            return fail("profile-total-size", "too big")
        layers.append(Layer(parent.ref, parent.body))
        current = parent


def handle(msg, call):
    with swapped(everywhere(inherit.build_profile, _build)):
        return call()
