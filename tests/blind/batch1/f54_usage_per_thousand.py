"""pi.classifier-usage -- PI-CLASSIFIER-COST.
Bug: the catalogue price is read as USD per thousand tokens instead of per million, so every cost is 1000 times too high."""


def handle(msg, call):
    rep = call()
    if rep.get("type") == "result" and isinstance(rep["output"].get("usage"), dict):
        cost = rep["output"]["usage"].get("cost")
        if isinstance(cost, dict):
            for k, v in list(cost.items()):
                if isinstance(v, (int, float)) and not isinstance(v, bool) and v:
                    cost[k] = v * 1000
    return rep
