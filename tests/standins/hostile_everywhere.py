"""A stand-in adapter that puts one hostile text (:data:`HOSTILE`: ANSI and OSC escapes, a bare
CR, a forged line, HTML tags, Markdown pipes, backticks and a link, U+2028, bidirectional
overrides, C1 and DEL) in every message an adapter controls.

``refuse``: its start is refused with that text as code and message, and its standard error holds
it. ``answer``: its name, version and language hold it, and so does its list of operations
(beside ``kit.echo``, ``envelope.instructions`` and ``pi.models-value``, which it provides). Each
answer writes the text on standard error first; ``kit.echo`` of ``"one\\ntwo\\n"`` answers a value
holding it, of ``1`` an error whose code and message hold it, and of anything else ``unsupported``
for a reason that holds it; ``envelope.instructions`` and ``pi.models-value`` answer the text as
their instructions and resolved value. ``crash``: as ``answer``, but every request is answered by
writing the text on standard error and exiting with code 3."""

import sys

from _proto import requests, send, started

HOSTILE = ("\x1b[31mred\x1b]8;;http://evil.example/\x07osc-link\x1b]8;;\x07\x1b]0;title\x07"
           "\rFORGED-CR\nFORGED-LINE: all passed\n<xevil onerror=alert(1)></td></tr><script>x</script>"
           "| pipe | `tick` ``` [link](http://evil.example/) *em* \u2028U2028\u2029U2029"
           "\u202edesrever\u202c\u2066isolate\u2069 \x9b31mC1\x7fDEL")


def main(mode):
    for message in requests():
        kind = message.get("type") if message else None
        if kind == "start" and mode == "refuse":
            sys.stderr.write("refusing " + HOSTILE + "\n")
            sys.stderr.flush()
            send({"type": "error", "code": "no" + HOSTILE, "message": "refused" + HOSTILE})
        elif kind == "start":
            send({"type": "started", "protocol": 1,
                  "implementation": {"name": "evil" + HOSTILE, "version": "1" + HOSTILE, "language": "py" + HOSTILE},
                  "operations": ["kit.echo", "envelope.instructions", "pi.models-value", "op" + HOSTILE]})
        elif kind == "run":
            sys.stderr.write("stderr " + HOSTILE + "\n")
            sys.stderr.flush()
            if mode == "crash":
                sys.exit(3)
            seq, op, value = message["seq"], message.get("op"), message.get("input", {}).get("value")
            if op == "envelope.instructions":
                send({"type": "result", "seq": seq, "output": {"providerInstructions": HOSTILE}})
            elif op == "pi.models-value":
                send({"type": "result", "seq": seq, "output": {"form": "literal", "variables": [], "resolved": HOSTILE}})
            elif value == "one\ntwo\n":
                send({"type": "result", "seq": seq, "output": {"value": HOSTILE}})
            elif value == 1:
                send({"type": "error", "seq": seq, "code": "c" + HOSTILE, "message": "m" + HOSTILE})
            else:
                send({"type": "unsupported", "seq": seq, "reason": "why" + HOSTILE})
        elif kind == "stop":
            send({"type": "stopped"})
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "answer"))
