"""Matching a model against binding rules (PROF-DECISION-RESOLUTION)."""

from __future__ import annotations

from reference.profiles.core.types import Binding, MatchRule, Model


def pattern_matches(pattern: str | None, value: str) -> bool:
    """Whether ``value`` matches ``pattern`` as a whole string.

    ``None`` (the field is absent) matches everything. ``*`` is the only wildcard and matches
    any run of characters, ``/`` included, so ``deepseek/*`` matches ``deepseek/a/b``; every
    other character matches itself (case-sensitive). Implements PROF-MATCH-PATTERN.
    """
    if pattern is None:
        return True
    if "*" not in pattern:
        return pattern == value
    parts = pattern.split("*")
    head, tail = parts[0], parts[-1]
    if len(head) + len(tail) > len(value) or not value.startswith(head) or not value.endswith(tail):
        return False
    pos, end = len(head), len(value) - len(tail)
    for middle in parts[1:-1]:
        if not middle:
            continue
        found = value.find(middle, pos, end)
        if found < 0:
            return False
        pos = found + len(middle)
    return True


def rule_matches(rule: MatchRule, model: Model) -> bool:
    """A rule matches when its provider AND its model match. Implements PROF-MATCH-AND."""
    return pattern_matches(rule.provider, model.provider) and pattern_matches(rule.model, model.id)


def is_exact(field: str | None) -> bool:
    """A field is exact when present and free of ``*``; absent or ``*``-bearing is a pattern."""
    return field is not None and "*" not in field


def rule_specificity(rule: MatchRule) -> int:
    """Specificity of a rule: 3 both exact, 2 model exact, 1 provider exact, 0 both patterns.
    Implements PROF-SPECIFICITY."""
    provider, model = is_exact(rule.provider), is_exact(rule.model)
    if provider and model:
        return 3
    if model:
        return 2
    if provider:
        return 1
    return 0


def binding_match(binding: Binding, model: Model) -> tuple[MatchRule, int] | None:
    """The best matching rule of ``binding`` and its specificity, or ``None`` when no rule
    matches. Rules are OR-ed; a binding's specificity is that of its most specific matching
    rule, the first such rule in file order being reported. Implements PROF-MATCH-OR and
    PROF-MATCH-RULE-FIRST."""
    best: tuple[MatchRule, int] | None = None
    provider, model_id = model.provider, model.id
    for rule in binding.match:
        # exact fields are compared inline; only fields with "*" go through pattern_matches
        p, m = rule.provider, rule.model
        if p is not None and p != provider and ("*" not in p or not pattern_matches(p, provider)):
            continue
        if m is not None and m != model_id and ("*" not in m or not pattern_matches(m, model_id)):
            continue
        spec = rule_specificity(rule)
        if best is None or spec > best[1]:
            best = (rule, spec)
            if spec == 3:
                break
    return best
