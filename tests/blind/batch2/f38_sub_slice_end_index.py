"""pi.substitute-args -- PI-TPL-SUB-SLICE.
Bug: ${@:N:L} is read as args.slice(N - 1, L), L taken for an end position instead of a length, so ${@:2:2} gives the second argument alone."""

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped


def substitute(content, args):
    joined = " ".join(args)

    def replace(match):
        target, default, start, length, simple = match.groups()
        if target is not None:
            value = joined if target in ("@", "ARGUMENTS") else templates._positional(args, target)
            return value if value else default
        if start is not None:
            begin = max(int(start) - 1, 0)
            return " ".join(args[begin:] if length is None else args[begin:int(length)])
        if simple in ("@", "ARGUMENTS"):
            return joined
        return templates._positional(args, simple) or ""

    return templates._PLACEHOLDER.sub(replace, content)


def handle(msg, call):
    with swapped(everywhere(templates.substitute_args, substitute)):
        return call()
