"""profiles.compose -- PROF-NEWLINES, PROF-COMPOSE.
Bug: the base prompt is put after the block with trimStart(), so leading spaces and tabs of the base are removed with its leading newlines."""

from reference.profiles.core import compose
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(compose, "strip_leading_newlines", lambda text: text.lstrip(" \t\n\r\v\f"))]):
        return call()
