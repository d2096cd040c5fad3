"""envelope.developer-messages -- ENV-TRIM-JS, ENV-RENDER-TRIM.
Bug: rendered content is trimmed with a trim that also removes U+0085 and U+001C..U+001F (Python's str.strip), and content left empty by it is dropped."""


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    out = []
    for m in rep["output"]["messages"]:
        if m["id"] != "environment":
            m = dict(m, content=m["content"].strip())
            if m["content"] == "":
                continue
        out.append(m)
    rep["output"]["messages"] = out
    return rep
