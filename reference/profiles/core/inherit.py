"""Inheritance: expanding a profile into its layers (PROF-DECISION-INHERITANCE)."""

from __future__ import annotations

from reference.profiles.core.refs import parse_ref
from reference.profiles.core.types import BuiltProfile, Diagnostic, Layer, LoadedProfile, ProfileRef, State

MAX_LAYERS = 8
MAX_CHAIN_BYTES = 262_144


def find_profile(state: State, ref: ProfileRef) -> LoadedProfile | None:
    """The loaded profile ``ref`` names, or ``None`` (unknown id, or a project scope that is not
    loaded because the project is untrusted or absent). Implements PROF-TRUST (an untrusted
    project contributes no profile)."""
    scope = state.scope(ref.scope)
    return scope.profiles.get(ref.id) if scope else None


def extends_of(state: State, ref: ProfileRef) -> tuple[bool, object]:
    """``(declared, raw value)`` of the ``extends`` metadata of ``ref`` in its own scope's
    config. Metadata of a scope lives only in that scope's config."""
    scope = state.scope(ref.scope)
    if scope is None or scope.config is None:
        return False, None
    meta = scope.config.profiles.get(ref.id)
    if meta is None or "extends" not in meta:
        return False, None
    return True, meta["extends"]


def build_profile(state: State, ref: ProfileRef) -> tuple[BuiltProfile | None, Diagnostic | None]:
    """Expand ``ref`` into its layers: the profile itself, then its bases nearest first.

    Returns ``(built, None)`` or ``(None, diagnostic)``. Exactly one diagnostic, whose subject is
    ``ref``, invalidates the whole profile; no layer is ever dropped (PROF-INHERIT-WHOLE):

    - ``profile-missing`` (detail ``profile``): ``ref`` itself is not loaded;
    - ``profile-extends`` (detail ``malformed``): an ``extends`` that is not a valid reference
      (PROF-INHERIT-MALFORMED);
    - ``profile-extends`` (detail ``scope``): a global profile whose chain names a project
      profile (PROF-INHERIT-SCOPE);
    - ``profile-cycle``: a profile met twice, including a profile extending itself
      (PROF-INHERIT-CYCLE);
    - ``profile-missing`` (detail ``parent``): a parent that is not loaded (PROF-INHERIT-MISSING);
    - ``profile-depth``: more than 8 layers (PROF-INHERIT-DEPTH);
    - ``profile-total-size``: more than 262,144 UTF-8 bytes of bodies in total
      (PROF-INHERIT-SIZE).

    A bare parent id resolves in the scope of the profile that names it (PROF-REF). Implements
    PROF-INHERIT-ORDER and the clauses named above.
    """
    subject = str(ref)

    def fail(code: str, message: str, detail: str | None = None) -> tuple[None, Diagnostic]:
        return None, Diagnostic("error", code, ref.scope, subject, message, detail)

    current = find_profile(state, ref)
    if current is None:
        return fail("profile-missing", f"profile {ref} does not exist", "profile")
    layers = [Layer(current.ref, current.body)]
    seen = {current.ref}
    total = current.size
    while True:
        declared, raw = extends_of(state, current.ref)
        if not declared:
            return BuiltProfile(ref, tuple(layers)), None
        parent_ref = parse_ref(raw, current.ref.scope)
        if parent_ref is None:
            return fail("profile-extends", f"{current.ref} extends {raw!r}, which is not a profile reference", "malformed")
        if current.ref.scope == "global" and parent_ref.scope == "project":
            return fail("profile-extends", f"global profile {current.ref} may not extend project profile {parent_ref}", "scope")
        if parent_ref in seen:
            return fail("profile-cycle", f"{current.ref} extends {parent_ref}, which is already in the chain")
        parent = find_profile(state, parent_ref)
        if parent is None:
            return fail("profile-missing", f"{current.ref} extends {parent_ref}, which does not exist", "parent")
        if len(layers) + 1 > MAX_LAYERS:
            return fail("profile-depth", f"the chain of {ref} has more than {MAX_LAYERS} layers")
        total += parent.size
        if total > MAX_CHAIN_BYTES:
            return fail("profile-total-size", f"the chain of {ref} has more than {MAX_CHAIN_BYTES} bytes")
        layers.append(Layer(parent.ref, parent.body))
        seen.add(parent.ref)
        current = parent
