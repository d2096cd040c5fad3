"""profiles.match -- PROF-MATCH-PATTERN.
Bug: rule fields are matched with fnmatch, so "?" matches any one character and "[...]" is a
character class, where "*" is the only wildcard and every other character matches itself.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from reference.profiles.core import match

from tests.blind.common import everywhere, swapped


def _pattern_matches(pattern, value) -> bool:
    return pattern is None or fnmatchcase(value, pattern)


def _binding_match(binding, model):
    best = None
    for rule in binding.match:
        if not (_pattern_matches(rule.provider, model.provider) and _pattern_matches(rule.model, model.id)):
            continue
        spec = match.rule_specificity(rule)
        if best is None or spec > best[1]:
            best = (rule, spec)
    return best


def handle(msg, call):
    with swapped(everywhere(match.pattern_matches, _pattern_matches)
                 + everywhere(match.binding_match, _binding_match)):
        return call()
