"""pi.substitute-args -- PI-TPL-SUB-ALL-DEFAULT.
Bug: ${@:-default} and ${ARGUMENTS:-default} give the default only when there are no arguments, so one empty argument ("") gives the empty text instead of the default."""

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped


def _substitute(content, args):
    joined = " ".join(args)

    def replace(match):
        target, default, start, length, simple = match.groups()
        if target is not None:
            if target in ("@", "ARGUMENTS"):
                return joined if args else default
            value = templates._positional(args, target)
            return value if value else default
        if start is not None:
            begin = max(int(start) - 1, 0)
            chosen = args[begin:] if length is None else args[begin: begin + int(length)]
            return " ".join(chosen)
        if simple in ("@", "ARGUMENTS"):
            return joined
        return templates._positional(args, simple) or ""

    return templates._PLACEHOLDER.sub(replace, content)


def handle(msg, call):
    with swapped(everywhere(templates.substitute_args, _substitute)):
        return call()
