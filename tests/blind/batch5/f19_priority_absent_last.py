"""envelope.developer-messages -- ENV-ORDER-PRIORITY.
Bug: a contribution without a priority is sorted after every prioritised one (as if its priority were the largest number) instead of as priority 0."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    for contribution in inp.get("contributions") or []:
        if isinstance(contribution, dict) and "priority" not in contribution:
            contribution["priority"] = 1e300
    return call(inp)
