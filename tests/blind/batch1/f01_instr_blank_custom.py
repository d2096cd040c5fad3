"""envelope.instructions -- ENV-INSTR-CUSTOM, ENV-DECISION-INSTRUCTIONS.
Bug: the custom prompt is tested with trim() before use, so a custom prompt of white space only counts as absent and Pi's system prompt is used instead."""


def handle(msg, call):
    inp = dict(msg["input"])
    cp = inp.get("customPrompt")
    if isinstance(cp, str) and cp != "" and cp.strip() == "":
        inp["customPrompt"] = None
        return call(inp)
    return call()
