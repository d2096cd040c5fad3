"""envelope.environment -- ENV-CWD-SLASHES.
Bug: the cwd's backslashes are replaced with JavaScript's cwd.replace("\\", "/"), which replaces only the first one."""


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    cwd = msg["input"].get("cwd", "")
    good, bad = cwd.replace("\\", "/"), cwd.replace("\\", "/", 1)
    line = "  <cwd>" + good + "</cwd>"
    if good != bad and line in rep["output"]["content"]:
        rep["output"]["content"] = rep["output"]["content"].replace(line, "  <cwd>" + bad + "</cwd>", 1)
    return rep
