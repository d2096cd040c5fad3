"""A stand-in adapter that answers ``kit.echo`` well but never answers ``stop`` (it sleeps, so the
kit waits for its ``stopped`` until its stop timeout)."""

import sys
import time

from _proto import echo, requests, send, started

if __name__ == "__main__":
    for message in requests():
        kind = message.get("type") if message else None
        if kind == "start":
            started(["kit.echo"], "deaf-to-stop")
        elif kind == "run":
            send(dict(echo(message), seq=message["seq"]))
        elif kind == "stop":
            time.sleep(3600)
    sys.exit(0)
