"""profiles.match -- PROF-SPECIFICITY.
Bug: a field counts as a pattern only when it is absent or exactly "*"; a field such as "gpt-*" that contains "*" is counted as exact."""

from reference.profiles.core import match
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(match.is_exact, lambda field: field is not None and field != "*")):
        return call()
