"""pi.load-templates -- PI-TPL-DESCRIPTION-CHARS, PI-TPL-DESCRIPTION-FALLBACK.
Bug: the fallback description is measured and cut in UTF-16 code units (line.length, line.slice(0, 60)), so a line with characters beyond the Basic Multilingual Plane is cut early and may end in half a surrogate pair (shown as U+FFFD)."""

from reference.pi.core import templates
from tests.blind.common import swapped


def first_line_description(body):
    for line in body.split("\n"):
        if templates.js_trim(line):
            units = line.encode("utf-16-le", "surrogatepass")
            if len(units) // 2 > templates.DESCRIPTION_LIMIT:
                return units[: 2 * templates.DESCRIPTION_LIMIT].decode("utf-16-le", "replace") + "..."
            return line
    return ""


def handle(msg, call):
    with swapped([(templates, "first_line_description", first_line_description)]):
        return call()
