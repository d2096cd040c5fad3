"""pi.load-templates -- PI-TPL-DESCRIPTION-CHARS, PI-TPL-DESCRIPTION-FALLBACK.
Bug: the fallback description is cut with line.slice(0, 60) on UTF-16 code units, so a line with characters beyond the Basic Multilingual Plane is cut short (or through a surrogate pair, here dropped)."""

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped


def _utf16_len(text):
    return len(text.encode("utf-16-le")) // 2


def _cut(text, units):
    out, used = [], 0
    for ch in text:
        size = 2 if ord(ch) > 0xFFFF else 1
        if used + size > units:
            break
        out.append(ch)
        used += size
    return "".join(out)


def _describe(body):
    for line in body.split("\n"):
        if templates.js_trim(line):
            if _utf16_len(line) > templates.DESCRIPTION_LIMIT:
                return _cut(line, templates.DESCRIPTION_LIMIT) + "..."
            return line
    return ""


def handle(msg, call):
    with swapped(everywhere(templates.first_line_description, _describe)):
        return call()
