"""A stand-in adapter that fails to start; the first argument says how.

- ``exit``: a message on standard error, then exit code 2 before reading anything;
- ``silent``: reads the start and never answers;
- ``garbage``: answers the start with a line that is not JSON;
- ``bad-hello``: answers ``started`` without its ``implementation``;
- ``old-protocol``: answers ``started`` for protocol 0.
"""

import sys
import time

from _proto import log, requests, send, send_raw

MODE = sys.argv[1] if len(sys.argv) > 1 else "exit"

if MODE == "exit":
    log("fails-to-start: missing runtime, giving up")
    sys.exit(2)

for message in requests():
    if MODE == "silent":
        time.sleep(3600)
    elif MODE == "garbage":
        send_raw("Starting adapter v1...\n")
    elif MODE == "bad-hello":
        send({"type": "started", "protocol": 1, "operations": ["kit.echo"]})
    elif MODE == "old-protocol":
        send({"type": "started", "protocol": 0,
              "implementation": {"name": "old", "version": "0", "language": "python"},
              "operations": ["kit.echo"]})
    break
time.sleep(3600)
