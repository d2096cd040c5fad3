"""pi.substitute-args -- PI-TPL-SUB-SLICE.
Bug: the length of ${@:N:L} is tested for truth, so ${@:N:0} gives every argument from N on instead of none."""

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped


def _substitute(content, args):
    joined = " ".join(args)

    def replace(match):
        target, default, start, length, simple = match.groups()
        if target is not None:
            value = joined if target in ("@", "ARGUMENTS") else templates._positional(args, target)
            return value if value else default
        if start is not None:
            begin = max(int(start) - 1, 0)
            chosen = args[begin: begin + int(length)] if length and int(length) else args[begin:]
            return " ".join(chosen)
        if simple in ("@", "ARGUMENTS"):
            return joined
        return templates._positional(args, simple) or ""

    return templates._PLACEHOLDER.sub(replace, content)


def handle(msg, call):
    with swapped(everywhere(templates.substitute_args, _substitute)):
        return call()
