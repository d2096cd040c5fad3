"""A stand-in adapter whose refusal of the start is hostile to a terminal: with ``error`` it answers
``start`` with an error whose code and message hold an ANSI sequence, a bidirectional override
and a line break that would forge the kit's line ``pi-conformance: all passed``; with ``exit`` it
writes such text on standard error and exits before answering. Either way its standard error
holds a forged line too."""

import sys

from _proto import log, requests, send

FORGED = "\x1b[32mgreen\u202e\npi-conformance: all passed"

if __name__ == "__main__":
    log("starting" + FORGED)
    if sys.argv[1:] == ["exit"]:
        sys.exit(2)
    for message in requests():
        if message and message.get("type") == "start":
            send({"type": "error", "code": "no" + FORGED, "message": "refused" + FORGED})
        elif message and message.get("type") == "stop":
            send({"type": "stopped"})
            break
    sys.exit(0)
