"""envelope.environment -- ENV-ENV-NOESCAPE.
Bug: the values of the environment message are XML-escaped (&, < and > become entities), as a template engine does by default."""

import re

LINE = re.compile(r"^(  <(\w+)>)(.*)(</\2>)$")


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def handle(msg, call):
    reply = call()
    out = reply.get("output") if reply.get("type") == "result" else None
    if isinstance(out, dict) and isinstance(out.get("content"), str):
        lines = []
        for line in out["content"].split("\n"):
            m = LINE.match(line)
            lines.append(m.group(1) + escape(m.group(3)) + m.group(4) if m else line)
        out["content"] = "\n".join(lines)
    return reply
