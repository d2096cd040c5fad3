"""envelope.instructions -- ENV-INSTR-CUSTOM.
Bug: the append-system text is joined to the custom prompt with a single "\n" instead of "\n\n"."""


def handle(msg, call):
    rep = call()
    inp = msg["input"]
    cp, ap = inp.get("customPrompt"), inp.get("appendSystemPrompt")
    if rep.get("type") == "result" and cp and ap:
        rep["output"]["providerInstructions"] = cp + "\n" + ap
    return rep
