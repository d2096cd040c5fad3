"""pi.load-templates -- PI-TPL-DESCRIPTION-FALLBACK.
Bug: the fallback description gets "..." when its line is 60 characters or longer (>= 60), so a line of exactly 60 characters is shown with "..."."""


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    for t in rep["output"]["templates"]:
        lines = [l for l in t["content"].split("\n") if l.strip() != ""]
        d = t.get("description")
        if lines and d == lines[0] and len(d) == 60:
            t["description"] = d + "..."
    return rep
