"""envelope.instructions -- ENV-INSTR-DEFAULT, ENV-INSTR-CUSTOM.
Bug: the append-system text is added after Pi's built prompt too when there is no custom prompt ([base, append].filter(Boolean).join("\n\n")), although Pi's built prompt already holds it."""


def handle(msg, call):
    inp = msg["input"]
    reply = call()
    if reply.get("type") == "result" and not inp.get("customPrompt") and inp.get("appendSystemPrompt"):
        parts = [p for p in (inp.get("systemPrompt"), inp["appendSystemPrompt"]) if p]
        reply["output"]["providerInstructions"] = "\n\n".join(parts)
    return reply
