"""pi.load-templates -- PI-TPL-BODY-TRIM.
Bug: the body is trimmed whether or not the file has frontmatter, so a plain template loses its leading and trailing white space."""

import dataclasses

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped

_original = templates.split_frontmatter


def _split(raw):
    parts = _original(raw)
    if parts.present:
        return parts
    return dataclasses.replace(parts, body=templates.js_trim(parts.body))


def handle(msg, call):
    with swapped(everywhere(_original, _split)):
        return call()
