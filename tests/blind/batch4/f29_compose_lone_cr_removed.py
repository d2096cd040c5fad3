"""profiles.compose -- PROF-NEWLINES, PROF-COMPOSE.
Bug: the base prompt's leading newlines are removed with lstrip("\\r\\n"), which also takes a lone "\\r" (and "\\n\\r"), though only "\\n" and "\\r\\n" sequences are newlines."""

from reference.profiles.core import compose
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(compose.strip_leading_newlines, lambda text: text.lstrip("\r\n"))):
        return call()
