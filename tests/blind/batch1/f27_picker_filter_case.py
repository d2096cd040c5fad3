"""profiles.picker -- PROF-PICKER-FILTER.
Bug: the filter compares with includes() on the raw strings, so it is case-sensitive."""


def handle(msg, call):
    rep = call()
    inp = msg["input"]
    if inp.get("action") != "filter" or rep.get("type") != "result":
        return rep
    items, q = inp.get("items") or [], inp.get("query")
    if q is None or q.strip() == "":
        return rep
    good = [i for i in items if q.lower() in i.lower()]
    if good == rep["output"].get("items"):
        rep["output"]["items"] = [i for i in items if q in i]
    return rep
