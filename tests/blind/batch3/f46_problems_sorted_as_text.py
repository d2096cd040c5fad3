"""pi.validate-message -- PI-MSG-PROBLEMS.
Bug: problems are sorted by their path string (localeCompare-free plain sort), so "$.content[10]" comes before "$.content[2]" and a key can come before an index."""


def handle(msg, call):
    reply = call()
    out = reply.get("output") if reply.get("type") == "result" else None
    if isinstance(out, dict) and isinstance(out.get("problems"), list):
        out["problems"] = sorted(out["problems"], key=lambda p: (p.get("path", ""), p.get("code", "")))
    return reply
