#!/usr/bin/env python3
"""my_adapter.py: a skeleton JSON-lines adapter for the pi-envelope-conformance kit (protocol 1).

It answers the handshake and ``kit.echo``, and every other operation ``unsupported``, so it passes
``pi-conformance smoke --adapter "python3 my_adapter.py"`` as it stands. Python 3.8 or newer, the
standard library only. Add one function per operation to ``OPERATIONS``."""

import json
import os
import sys
import traceback

IMPLEMENTATION = {"name": "my-implementation", "version": "0.1.0", "language": "python"}


class Refusal(Exception):
    """A refusal the specification defines: answered as ``error`` with its stable ``code``."""

    def __init__(self, code, message=None):
        super().__init__(message or code)
        self.code = code


class Unsupported(Exception):
    """An operation, or a field of a case, that this implementation does not provide."""


def echo(input, root, edition):
    return {"value": input["value"]}


# One function per operation: (input, root, edition) -> output. ``root`` is the absolute path of
# the case's file tree (or None); paths in ``input`` are relative to it. Names and schemas:
# ``pi-conformance list``, ``pi-conformance schema --out DIR``. A case sends its input as written:
# fill in the defaults of the operation's input schema for the fields it leaves out.
OPERATIONS = {
    "kit.echo": echo,
    # "envelope.instructions": instructions,
}


def _not_json(constant):
    raise ValueError(f"{constant} is not JSON")


def answer(message, state):
    """The one line (a dict) that answers ``message``."""
    seq = message.get("seq")
    seq = seq if type(seq) is int else None
    kind = message.get("type")
    if kind == "start":
        if message.get("protocol") != 1:
            return {"type": "error", "code": "protocol-unsupported", "protocols": [1],
                    "message": f"this adapter speaks protocol 1, not {message.get('protocol')!r}"}
        state["started"] = True
        return {"type": "started", "protocol": 1, "implementation": IMPLEMENTATION, "operations": sorted(OPERATIONS)}
    if kind != "run":
        return {"type": "protocol-error", "seq": seq, "message": f"unknown message type {json.dumps(kind)}"}
    if seq is None:
        return {"type": "protocol-error", "seq": None, "message": "'run' field 'seq' must be an integer"}
    op = message.get("op")
    if not isinstance(op, str) or not op:
        return {"type": "protocol-error", "seq": seq, "message": "'run' field 'op' must be a non-empty string"}
    if not isinstance(message.get("input"), dict):
        return {"type": "protocol-error", "seq": seq, "message": "'run' field 'input' must be an object"}
    if not state["started"]:
        return {"type": "protocol-error", "seq": seq, "message": "'run' before 'start'"}
    handler = OPERATIONS.get(op)
    if handler is None:
        return {"type": "unsupported", "seq": seq, "reason": f"{op} is not provided"}
    try:
        return {"type": "result", "seq": seq, "output": handler(message["input"], message.get("root"), message.get("edition"))}
    except Refusal as exc:
        return {"type": "error", "seq": seq, "code": exc.code, "message": str(exc)}
    except Unsupported as exc:
        return {"type": "unsupported", "seq": seq, "reason": str(exc)}
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        return {"type": "errored", "seq": seq, "message": f"{type(exc).__name__}: {exc}"}


def main():
    # Standard output carries protocol lines only: whatever else is printed goes to standard error.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    state = {"started": False}
    for raw in sys.stdin.buffer:  # split at b"\n" only: U+2028 inside a string is no line break
        try:
            message = json.loads(raw.decode("utf-8"), parse_constant=_not_json)
        except ValueError:
            reply = {"type": "protocol-error", "seq": None, "message": "the line is not JSON"}
        else:
            if not isinstance(message, dict):
                reply = {"type": "protocol-error", "seq": None, "message": "the line is not a JSON object"}
            elif message.get("type") == "stop":
                out.write('{"type":"stopped"}\n')
                out.flush()
                return 0
            else:
                reply = answer(message, state)
        # ensure_ascii: a lone surrogate is written as a \uXXXX escape, as the protocol requires
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()
    return 0  # the end of standard input: nothing to answer


if __name__ == "__main__":
    sys.exit(main())
