"""pi.validate-message -- PI-MSG-BRANCH-SUMMARY, PI-MSG-OPTIONAL-NULL.
Bug: a branch summary's fromId is read with "fromId ?? null", so an absent fromId passes as null instead of being reported missing."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    message = inp.get("message")
    if isinstance(message, dict) and message.get("role") == "branchSummary" and "fromId" not in message:
        message["fromId"] = None
    return call(inp)
