"""pi.load-templates -- PI-TPL-DESCRIPTION-FALLBACK.
Bug: the fallback description is the first non-blank line trimmed, not as written, so its indentation and trailing white space are lost (and the 60 characters are counted after trimming)."""

from reference.pi.core import templates
from reference.text import js_trim
from tests.blind.common import everywhere, swapped


def _description(body):
    for line in body.split("\n"):
        text = js_trim(line)
        if text:
            return text[: templates.DESCRIPTION_LIMIT] + "..." if len(text) > templates.DESCRIPTION_LIMIT else text
    return ""


def handle(msg, call):
    with swapped(everywhere(templates.first_line_description, _description)):
        return call()
