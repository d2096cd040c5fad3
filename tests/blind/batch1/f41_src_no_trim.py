"""pi.package-source -- PI-PKG-SOURCE-TRIM.
Bug: the source is not trimmed before its prefix is checked, so " npm:pkg" with a leading space is taken for a local path."""


def handle(msg, call):
    src = msg["input"].get("source", "")
    if src != src.lstrip() and src.strip() and src == src.rstrip():
        return call(dict(msg["input"], source="./" + src))
    return call()
