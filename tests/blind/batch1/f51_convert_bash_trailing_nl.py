"""pi.convert-to-llm -- PI-CONVERT-BASH-TEXT.
Bug: the newline before the closing ``` is added only when the output does not already end with one, so an output ending in "\n" is not followed by a further newline."""


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    src = [m for m in msg["input"].get("messages") or [] if isinstance(m, dict) and m.get("role") == "bashExecution" and not m.get("excludeFromContext")]
    for o in rep["output"]["messages"]:
        c = o.get("content")
        if o.get("role") != "user" or not (isinstance(c, list) and len(c) == 1 and isinstance(c[0].get("text"), str)):
            continue
        for s in src:
            out = s.get("output")
            if isinstance(out, str) and out.endswith("\n") and s.get("timestamp") == o.get("timestamp") and c[0]["text"].startswith("Ran `" + str(s.get("command")) + "`\n"):
                good = "```\n" + out + "\n```"
                if good in c[0]["text"]:
                    c[0]["text"] = c[0]["text"].replace(good, "```\n" + out + "```", 1)
                break
    return rep
