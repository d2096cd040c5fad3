"""pi.load-templates -- PI-TPL-DESCRIPTION-FALLBACK.
Bug: a line counts as blank only when it is empty, so a first line of spaces (or a tab) is taken as the fallback description instead of the first line with text."""

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped


def _description(body):
    for line in body.split("\n"):
        if line != "":
            if len(line) > templates.DESCRIPTION_LIMIT:
                return line[:templates.DESCRIPTION_LIMIT] + "..."
            return line
    return ""


def handle(msg, call):
    with swapped(everywhere(templates.first_line_description, _description)):
        return call()
