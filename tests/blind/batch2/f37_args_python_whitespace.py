r"""pi.parse-args -- PI-TPL-ARGS-SPLIT.
Bug: arguments are split at Python's str.isspace() characters instead of JavaScript's \s set, so U+001C..U+001F and U+0085 separate arguments and U+FEFF does not."""

import sys

from reference.pi.core import templates
from tests.blind.common import swapped

PY_WHITESPACE = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())


def handle(msg, call):
    with swapped([(templates, "JS_WHITESPACE", PY_WHITESPACE)]):
        return call()
