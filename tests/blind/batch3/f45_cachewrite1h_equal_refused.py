"""pi.validate-message -- PI-MSG-USAGE-CACHEWRITE1H, PI-MSG-USAGE-REASONING.
Bug: the part-of checks use >= instead of > (skipping zero), so a cacheWrite1h equal to a non-zero cacheWrite (or reasoning equal to output) is refused."""

from reference.pi.core import messages
from tests.blind.common import everywhere, swapped


def _check(usage, at):
    if not isinstance(usage, dict):
        return []
    out = []
    for part, whole, code in (("cacheWrite1h", "cacheWrite", "exceeds-cache-write"), ("reasoning", "output", "exceeds-output")):
        a, b = usage.get(part), usage.get(whole)
        if messages._is_number(a) and messages._is_number(b) and a >= b and a != 0:
            out.append(messages.Problem(at + (part,), code, f"{part} exceeds {whole}"))
    return out


def handle(msg, call):
    with swapped(everywhere(messages.check_usage_subsets, _check)):
        return call()
