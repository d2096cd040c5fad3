"""Seeded faults of the profiles area (PROF-* clauses): off-by-ones at every limit, stripping,
specificity, conflicts, cycles, layer order."""

from __future__ import annotations

from conformance.faults.runner import Fault, replace, wrap
from conformance.faults.patches import mutate
from reference.profiles.core import compose as comp
from reference.profiles.core.types import Diagnostic

CORE = "reference.profiles.core"


def _strip_only_at_start(original):
    """Only a block at the very start of the prompt is removed."""
    def strip_blocks(text):
        if text.startswith(comp.BEGIN_MARKER):
            end = text.find(comp.END_MARKER)
            if end >= 0:
                done = original(text[: end + len(comp.END_MARKER)] + "\n")
                rest = comp.strip_leading_newlines(text[end + len(comp.END_MARKER):])
                return comp.Stripped(done.text + rest, 1, [])
        scan = original(text)
        return comp.Stripped(text, 0, scan.diagnostics)
    return strip_blocks


def _specificity_swapped(original):
    def rule_specificity(rule):
        return {1: 2, 2: 1}.get(original(rule), original(rule))
    return rule_specificity


def _first_matching_rule(binding, model):
    from reference.profiles.core.match import rule_matches, rule_specificity

    for rule in binding.match:
        if rule_matches(rule, model):
            return rule, rule_specificity(rule)
    return None


def _conflict_by_file_order(original):
    """A tie between different profiles is won by the binding written first."""
    from reference.profiles.core.match import binding_match
    from reference.profiles.core.resolve import BindingHit

    def scope_winner(bindings, scope, model):
        hit, conflict = original(bindings, scope, model)
        if conflict is None:
            return hit, conflict
        hits = []
        for b in bindings:
            found = binding_match(b, model)
            if found is not None:
                hits.append(BindingHit(scope, b, found[0], found[1]))
        best = max((h.binding.priority, h.specificity) for h in hits)
        return min((h for h in hits if (h.binding.priority, h.specificity) == best),
                   key=lambda h: h.binding.index), None
    return scope_winner


def _cycle_undetected(original):
    """A cycle is not recognised as such: the chain runs on until the depth limit stops it."""
    def build_profile(state, ref):
        built, diag = original(state, ref)
        if diag is not None and diag.code == "profile-cycle":
            return None, Diagnostic("error", "profile-depth", diag.scope, diag.subject,
                                    f"the chain of {ref} has more than 8 layers")
        return built, diag
    return build_profile


def _reversed_layers(original):
    return lambda bodies: original(list(reversed(bodies)))


def _off_keeps_base(original):
    def compose(base, bodies, *, off=False):
        if off:
            return comp.Composition(base or "", None, 0, [])
        return original(base, bodies, off=off)
    return compose


def _star_stops_at_slash(original):
    import re

    def pattern_matches(pattern, value):
        if pattern is None or "*" not in pattern:
            return original(pattern, value)
        regex = "".join("[^/]*" if part == "*" else re.escape(part) for part in re.split(r"(\*)", pattern))
        return re.fullmatch(regex, value) is not None
    return pattern_matches


def limit(fault_id, target, value, title, clauses, ops=None):
    return Fault(fault_id, "profiles", title, clauses, (replace(target, value),), ops)


FAULTS = [
    Fault("prof-strip-only-at-start", "profiles", "Only a managed block at the start of the prompt is stripped",
          ("PROF-STRIP",), (wrap(f"{CORE}.compose:strip_blocks", _strip_only_at_start),)),
    Fault("prof-specificity-swapped", "profiles", "Provider-exact rules rank above model-exact rules",
          ("PROF-SPECIFICITY",), (wrap(f"{CORE}.match:rule_specificity", _specificity_swapped),)),
    Fault("prof-or-first-rule", "profiles", "A binding's specificity is its first matching rule's, not its best",
          ("PROF-MATCH-OR", "PROF-SPECIFICITY"), (replace(f"{CORE}.match:binding_match", _first_matching_rule),)),
    Fault("prof-conflict-file-order", "profiles", "A conflict between different profiles is resolved by file order",
          ("PROF-RESOLVE-CONFLICT",), (wrap(f"{CORE}.resolve:scope_winner", _conflict_by_file_order),)),
    Fault("prof-cycle-undetected", "profiles", "A cycle is not detected (the depth limit ends it instead)",
          ("PROF-INHERIT-CYCLE",), (wrap(f"{CORE}.inherit:build_profile", _cycle_undetected),)),
    Fault("prof-layers-base-first", "profiles", "The block lists the bases before the specific profile",
          ("PROF-INHERIT-ORDER", "PROF-BLOCK"), (wrap(f"{CORE}.compose:managed_block", _reversed_layers),)),
    Fault("prof-bom-kept", "profiles", "A leading BOM is kept in the profile body",
          ("PROF-LOAD-BOM",), (replace(f"{CORE}.profiles:strip_bom", lambda data: data),)),
    Fault("prof-marker-accepted", "profiles", "A profile body containing a marker is accepted",
          ("PROF-MARKER-FORGERY",), (replace(f"{CORE}.markers:forged_marker", lambda body: None),)),
    Fault("prof-off-keeps-base", "profiles", "Mode off returns the base prompt instead of no prompt",
          ("PROF-COMPOSE-NONE",), (wrap(f"{CORE}.compose:compose", _off_keeps_base),)),
    Fault("prof-star-stops-at-slash", "profiles", "* does not match across /",
          ("PROF-MATCH-PATTERN",), (wrap(f"{CORE}.match:pattern_matches", _star_stops_at_slash),)),
    limit("prof-depth-limit-7", f"{CORE}.inherit:MAX_LAYERS", 7, "A chain of 8 layers is refused",
          ("PROF-INHERIT-DEPTH",)),
    limit("prof-depth-limit-9", f"{CORE}.inherit:MAX_LAYERS", 9, "A chain of 9 layers loads",
          ("PROF-INHERIT-DEPTH",)),
    # The limits again where a chain is applied: each operation that builds one must catch them on its own.
    limit("prof-depth-limit-7-in-resolve", f"{CORE}.inherit:MAX_LAYERS", 7, "A profile applied with 8 layers is refused",
          ("PROF-INHERIT-DEPTH",), ("profiles.resolve",)),
    limit("prof-depth-limit-9-in-resolve", f"{CORE}.inherit:MAX_LAYERS", 9, "A profile applied with 9 layers builds",
          ("PROF-INHERIT-DEPTH",), ("profiles.resolve",)),
    limit("prof-depth-limit-7-in-session", f"{CORE}.inherit:MAX_LAYERS", 7, "A session cannot select a chain of 8 layers",
          ("PROF-INHERIT-DEPTH",), ("profiles.session",)),
    limit("prof-chain-bytes-262143-in-session", f"{CORE}.inherit:MAX_CHAIN_BYTES", 262_143,
          "A session cannot select a chain of exactly 262,144 bytes", ("PROF-INHERIT-SIZE",), ("profiles.session",)),
    limit("prof-size-limit-65535", f"{CORE}.profiles:PROFILE_MAX_BYTES", 65_535,
          "A profile body of exactly 65,536 bytes is skipped", ("PROF-LOAD-SIZE",)),
    limit("prof-size-limit-65537", f"{CORE}.profiles:PROFILE_MAX_BYTES", 65_537,
          "A profile body of 65,537 bytes loads", ("PROF-LOAD-SIZE",)),
    limit("prof-chain-bytes-262143", f"{CORE}.inherit:MAX_CHAIN_BYTES", 262_143,
          "A chain of exactly 262,144 bytes of bodies is refused", ("PROF-INHERIT-SIZE",)),
    limit("prof-chain-bytes-262145", f"{CORE}.inherit:MAX_CHAIN_BYTES", 262_145,
          "A chain of 262,145 bytes of bodies loads", ("PROF-INHERIT-SIZE",)),
    limit("prof-bindings-limit-199", f"{CORE}.config:MAX_BINDINGS", 199,
          "A config with exactly 200 bindings has them all ignored", ("PROF-CONFIG-BINDINGS-LIMIT",)),
    limit("prof-bindings-limit-201", f"{CORE}.config:MAX_BINDINGS", 201,
          "A config with 201 bindings keeps them", ("PROF-CONFIG-BINDINGS-LIMIT",)),
    limit("prof-id-length-63", f"{CORE}.ids:ID_MAX_LENGTH", 63, "An id of exactly 64 characters is refused",
          ("PROF-ID",)),
    limit("prof-picker-rows-9", f"{CORE}.picker:MAX_VISIBLE_ROWS", 9, "A picker shows at most 9 rows",
          ("PROF-PICKER-WINDOW",)),
    limit("prof-picker-rows-11", f"{CORE}.picker:MAX_VISIBLE_ROWS", 11, "A picker shows up to 11 rows",
          ("PROF-PICKER-WINDOW",)),
    limit("prof-picker-page-9", f"{CORE}.picker:PAGE_SIZE", 9, "Fallback pages hold 9 items",
          ("PROF-PICKER-PAGES",)),
    limit("prof-picker-page-11", f"{CORE}.picker:PAGE_SIZE", 11, "Fallback pages hold 11 items",
          ("PROF-PICKER-PAGES",)),
    limit("prof-id-length-65", f"{CORE}.ids:ID_MAX_LENGTH", 65, "An id of 65 characters is accepted",
          ("PROF-ID",)),
    Fault("prof-settings-value-case-folded", "profiles",
          "A set value is compared after lower-casing, so Inherit or OFF is accepted",
          ("PROF-SETTINGS-PARSE",),
          (mutate("reference.profiles.core.settings:parse_setting", "text = js_trim(value)", "text = js_trim(value).lower()"),),
          ("profiles.settings",)),
]
