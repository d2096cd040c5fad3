"""profiles.compose -- PROF-NEWLINES.
Bug: the base prompt's leading newlines are removed with lstrip("\\r\\n"), a set of characters, so a
lone carriage return (not a newline) at its start is removed too.
"""

from __future__ import annotations

from reference.profiles.core import compose

from tests.blind.common import everywhere, swapped


def _strip_leading_newlines(text: str) -> str:
    return text.lstrip("\r\n")


def handle(msg, call):
    with swapped(everywhere(compose.strip_leading_newlines, _strip_leading_newlines)):
        return call()
