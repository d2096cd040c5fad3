"""pi.validate-message -- PI-MSG-BASH-EXITCODE-NULL, PI-MSG-BASH.
Bug: a bash-execution message's exitCode is typed number | undefined only, so "exitCode": null is refused with wrong-type."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    message = inp.get("message")
    if isinstance(message, dict) and message.get("role") == "bashExecution" and "exitCode" in message and message["exitCode"] is None:
        message["exitCode"] = "null"
    return call(inp)
