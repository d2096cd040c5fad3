"""envelope.settings -- ENV-AUDIT-TOML-FORM.
Bug: the stored form writes the roles with JSON.stringify, so they are separated by "," with no space: ["developer","context-user"]."""


def handle(msg, call):
    rep = call()
    if rep.get("type") == "result" and isinstance(rep["output"].get("toml"), str):
        rep["output"]["toml"] = rep["output"]["toml"].replace('", "', '","')
    return rep
