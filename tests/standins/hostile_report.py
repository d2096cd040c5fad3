"""A stand-in adapter whose text is hostile to the reports: its name holds HTML and a raw CR, it
answers ``kit.echo`` of ``"one\\ntwo\\n"`` with a value holding a CR and a closing code fence, and
refuses the rest with a message that holds HTML, a CR, a fence and a forged Markdown heading."""

import sys

from _proto import requests, send, started

HOSTILE = "<img src=x onerror=alert(1)>\r```\n# forged heading\n<script>alert(2)</script>"

if __name__ == "__main__":
    for message in requests():
        kind = message.get("type") if message else None
        if kind == "start":
            started(["kit.echo"], "<b>evil</b>\rname")
        elif kind == "run":
            if message["input"].get("value") == "one\ntwo\n":
                send({"type": "result", "seq": message["seq"], "output": {"value": "one\r\n```\ntwo"}})
            else:
                send({"type": "error", "seq": message["seq"], "code": "c<i>\r", "message": HOSTILE})
        elif kind == "stop":
            send({"type": "stopped"})
            break
    sys.exit(0)
