"""pi.validate-message -- PI-MSG-PROBLEMS.
Bug: problems are sorted by their path as plain text, so "$.content[10]" comes before "$.content[2]"."""


def handle(msg, call):
    rep = call()
    if rep.get("type") == "result":
        rep["output"]["problems"].sort(key=lambda p: (p["path"], p["code"]))
    return rep
