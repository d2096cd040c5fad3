"""pi.load-templates -- PI-TPL-NEWLINES.
Bug: only "\r\n" is made "\n" when a template file is read; a lone "\r" (old Mac line ends) stays, so such a file is one line and its frontmatter is not found."""

from reference.pi.core import templates
from tests.blind.common import swapped


def normalise_text(raw):
    if raw.startswith("\ufeff"):
        raw = raw[1:]
    return raw.replace("\r\n", "\n")


def handle(msg, call):
    with swapped([(templates, "normalise_text", normalise_text)]):
        return call()
