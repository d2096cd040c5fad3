"""profiles.picker -- PROF-PICKER-WINDOW.
Bug: the window is sized to the terminal height less three rows of chrome instead of four."""


def handle(msg, call):
    inp = msg["input"]
    if inp.get("action") == "window" and isinstance(inp.get("terminalRows"), int):
        inp = dict(inp, terminalRows=inp["terminalRows"] + 1)
        return call(inp)
    return call()
