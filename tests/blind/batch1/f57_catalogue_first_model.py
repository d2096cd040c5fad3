"""pi.classifier-catalogue -- PI-CLASSIFIER-CATALOGUE.
Bug: the catalogue table was read as one model per provider, so OpenRouter's ~typesafe/jev-latest and OpenCode's jev-1.13-free are missing."""


def handle(msg, call):
    rep = call()
    if rep.get("type") == "result" and msg.get("edition") in (None, "pi-0.99.4"):
        seen, out = set(), []
        for m in rep["output"]["models"]:
            if m["provider"] in seen:
                continue
            seen.add(m["provider"])
            out.append(m)
        rep["output"]["models"] = out
    return rep
