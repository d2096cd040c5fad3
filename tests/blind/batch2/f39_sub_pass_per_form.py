"""pi.substitute-args -- PI-TPL-SUB-ONE-PASS.
Bug: each placeholder form is replaced in a pass of its own (defaults, slices, $ARGUMENTS and $@, then $N), so argument text that holds "$1" or "$@" is substituted again by a later pass."""

import re

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped

PASSES = (
    re.compile(r"\$\{([0-9]+|ARGUMENTS|@):-([^}]*)\}"),
    re.compile(r"\$\{@:([0-9]+)(?::([0-9]+))?\}"),
    re.compile(r"\$(ARGUMENTS|@)"),
    re.compile(r"\$([0-9]+)"),
)


def substitute(content, args):
    joined = " ".join(args)

    def default(m):
        value = joined if m.group(1) in ("@", "ARGUMENTS") else templates._positional(args, m.group(1))
        return value if value else m.group(2)

    def sliced(m):
        begin = max(int(m.group(1)) - 1, 0)
        return " ".join(args[begin:] if m.group(2) is None else args[begin:begin + int(m.group(2))])

    text = PASSES[0].sub(default, content)
    text = PASSES[1].sub(sliced, text)
    text = PASSES[2].sub(lambda m: joined, text)
    return PASSES[3].sub(lambda m: templates._positional(args, m.group(1)) or "", text)


def handle(msg, call):
    with swapped(everywhere(templates.substitute_args, substitute)):
        return call()
