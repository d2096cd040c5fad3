"""pi.expand-input -- PI-TPL-EXPAND-EXTENSION.
Bug: templates are looked up before extension commands, so a template of the same name wins over the extension command."""


def handle(msg, call):
    inp = dict(msg["input"])
    names = {t.get("name") for t in inp.get("templates") or []}
    ext = inp.get("extensionCommands") or []
    kept = [e for e in ext if e not in names]
    if kept != ext:
        inp["extensionCommands"] = kept
        return call(inp)
    return call()
