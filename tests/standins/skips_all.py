"""A stand-in adapter that provides ``kit.echo`` and answers ``skipped`` to every request: a run
against it judges nothing, whatever it counts."""

import sys

from _proto import requests, send, started

if __name__ == "__main__":
    for message in requests():
        kind = message.get("type") if message else None
        if kind == "start":
            started(["kit.echo"], "skips-all")
        elif kind == "run":
            send({"type": "skipped", "seq": message["seq"], "reason": "not today"})
        elif kind == "stop":
            send({"type": "stopped"})
            break
    sys.exit(0)
