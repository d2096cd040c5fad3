"""profiles.resolve -- PROF-INHERIT-CYCLE, PROF-INHERIT-DEPTH.
Bug: the chain only checks each parent against the profile it started from, so a cycle that does
not return to the start (a -> b -> c -> b) goes round until the layer limit and is reported as
profile-depth instead of profile-cycle.
"""

from __future__ import annotations

from reference.profiles.core import inherit
from reference.profiles.core.refs import parse_ref
from reference.profiles.core.types import BuiltProfile, Diagnostic, Layer

from tests.blind.common import everywhere, swapped


def _build_profile(state, ref):
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
        parent_ref = parse_ref(raw, current.ref.scope)
        if parent_ref is None:
            return fail("profile-extends", f"{current.ref} extends {raw!r}", "malformed")
        if current.ref.scope == "global" and parent_ref.scope == "project":
            return fail("profile-extends", f"{current.ref} may not extend {parent_ref}", "scope")
        if parent_ref == ref:
            return fail("profile-cycle", f"{current.ref} extends {parent_ref}, the profile being built")
        parent = inherit.find_profile(state, parent_ref)
        if parent is None:
            return fail("profile-missing", f"{current.ref} extends {parent_ref}", "parent")
        if len(layers) + 1 > inherit.MAX_LAYERS:
            return fail("profile-depth", f"the chain of {ref} is too deep")
        total += parent.size
        if total > inherit.MAX_CHAIN_BYTES:
            return fail("profile-total-size", f"the chain of {ref} is too large")
        layers.append(Layer(parent.ref, parent.body))
        current = parent


def handle(msg, call):
    with swapped(everywhere(inherit.build_profile, _build_profile)):
        return call()


# shown on: {"op": "profiles.resolve", "input": {"agentDir": "agent", "cwd": "proj", "trusted": true, "model": {"provider": "p", "id": "m"}, "session": {"mode": "manual", "profile": "a"}}, "tree": {"agent/system-prompts/profiles/a.md": "A", "agent/system-prompts/profiles/b.md": "B", "agent/system-prompts/profiles/c.md": "C", "agent/system-prompts/config.json": "{\"version\": 1, \"profiles\": {\"a\": {\"extends\": \"b\"}, \"b\": {\"extends\": \"c\"}, \"c\": {\"extends\": \"b\"}}}"}}
