"""An adapter whose every piece of text is hostile to a terminal.

Its name holds an ANSI colour sequence, a lone surrogate and a line break that would forge the
line ``fake: all passed``. It answers ``envelope.instructions`` with an error whose code is 100,000
characters long and whose message holds control characters, a bidirectional override and a forged
line; ``envelope.session`` with ``unsupported`` for a reason of the same kind; and
``envelope.environment`` by writing such text on standard error and exiting with code 3.
"""

import sys

from _proto import requests, send, started

FORGED = "\x1b[31mred\ud800\nfake: all passed"


def main():
    for message in requests():
        kind = message.get("type") if message else None
        if kind == "start":
            started(["envelope.instructions", "envelope.session", "envelope.environment"], "evil" + FORGED)
        elif kind == "run":
            op = message.get("op")
            if op == "envelope.instructions":
                send({"type": "error", "seq": message["seq"], "code": "X" * 100_000,
                      "message": "\x00\u202e" + FORGED})
            elif op == "envelope.session":
                send({"type": "unsupported", "seq": message["seq"], "reason": "why" + FORGED})
            else:
                sys.stderr.buffer.write(b"\x1b[2Jcleared\nfake: all passed\n")
                sys.stderr.flush()
                sys.exit(3)
        elif kind == "stop":
            send({"type": "stopped"})
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
