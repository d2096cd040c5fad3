"""An adapter that fails during a run.

``crash N``: the reference, served by a child process, answers every request until the Nth
``run`` (counted afresh in each process), when this adapter writes ``unreliable: crash`` on standard
error and exits with code 9 without answering.
``fickle``: provides ``envelope.instructions`` and answers the same input differently each time
(``error`` with code ``FICKLE`` the first time it meets an input, ``unsupported`` after).
"""

import os
import subprocess
import sys

from _proto import log, requests, send, send_raw, started


def crash(limit):
    child = subprocess.Popen([sys.executable, "-m", "conformance.adapters.server"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, encoding="utf-8")
    count = 0
    for line in sys.stdin:
        if '"type": "run"' in line or '"type":"run"' in line:
            count += 1
            if count == limit:
                log("unreliable: crash")
                child.kill()
                os._exit(9)
        child.stdin.write(line)
        child.stdin.flush()
        send_raw(child.stdout.readline())
        if '"stop"' in line:
            return 0
    return 0


def fickle():
    seen = set()
    for message in requests():
        kind = message.get("type") if message else None
        if kind == "start":
            started(["envelope.instructions"], "fickle")
        elif kind == "run":
            key = repr(sorted(message.get("input", {}).items()))
            send({"type": "unsupported", "seq": message["seq"]} if key in seen
                 else {"type": "error", "seq": message["seq"], "code": "FICKLE", "message": "odd"})
            seen.add(key)
        elif kind == "stop":
            send({"type": "stopped"})
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(crash(int(sys.argv[2])) if sys.argv[1] == "crash" else fickle())
