"""profiles.resolve -- PROF-MATCH-RULE-FIRST, PROF-MATCH-OR.
Bug: among rules of one binding with the same best specificity the last one is reported (>= instead of > when keeping the best). (Measured on first sight against profiles.match, whose answer names no rule, so it could not show there.)"""

from reference.profiles.core import match
from tests.blind.common import everywhere, swapped


def _binding_match(binding, model):
    best = None
    for rule in binding.match:
        if not match.rule_matches(rule, model):
            continue
        spec = match.rule_specificity(rule)
        if best is None or spec >= best[1]:
            best = (rule, spec)
    return best


def handle(msg, call):
    with swapped(everywhere(match.binding_match, _binding_match)):
        return call()
