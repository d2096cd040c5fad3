"""pi.load-templates -- PI-TPL-DESCRIPTION-CHARS.
Bug: the fallback description is measured and cut in UTF-16 code units (JavaScript's length and
slice), so a first line of emoji is cut too early, possibly through a surrogate pair.
"""

from __future__ import annotations

from reference.pi.core import templates
from reference.text import js_trim

from tests.blind.common import everywhere, swapped


def _first_line_description(body: str) -> str:
    for line in body.split("\n"):
        if js_trim(line):
            units = line.encode("utf-16-le", "surrogatepass")
            if len(units) > 2 * templates.DESCRIPTION_LIMIT:
                cut = units[: 2 * templates.DESCRIPTION_LIMIT].decode("utf-16-le", "surrogatepass")
                return cut + "..."
            return line
    return ""


def handle(msg, call):
    with swapped(everywhere(templates.first_line_description, _first_line_description)):
        return call()
