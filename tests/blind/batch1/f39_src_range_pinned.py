"""pi.package-source -- PI-PKG-SOURCE-NPM.
Bug: any npm version counts as pinned, so a range or a tag (npm:pkg@^1.2.0, npm:pkg@latest) is reported pinned."""


def handle(msg, call):
    rep = call()
    if rep.get("type") == "result" and rep["output"].get("type") == "npm" and rep["output"].get("version"):
        rep["output"]["pinned"] = True
    return rep
