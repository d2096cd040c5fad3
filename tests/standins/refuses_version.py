"""A stand-in adapter that speaks only protocol 99 and refuses the kit's version at start."""

import sys

from _proto import log, requests, send

for message in requests():
    kind = message.get("type") if message else None
    if kind == "start":
        log(f"refuses-version: the kit asked for protocol {message.get('protocol')}")
        send({"type": "error", "code": "protocol-unsupported",
              "message": f"this adapter speaks protocol 99, not {message.get('protocol')}",
              "protocols": [99]})
    elif kind == "stop":
        send({"type": "stopped"})
        break
