r"""profiles.compose -- PROF-NEWLINES, PROF-COMPOSE.
Bug: the base prompt's leading newlines are removed with trimStart(), which also removes leading spaces, tabs and a lone "\r"."""

from reference.profiles.core import compose
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(compose.strip_leading_newlines, lambda text: text.lstrip())):
        return call()
