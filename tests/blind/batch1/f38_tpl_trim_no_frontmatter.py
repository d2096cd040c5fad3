"""pi.load-templates -- PI-TPL-BODY-TRIM.
Bug: the body is always trimmed, also when the file has no frontmatter, so leading and trailing white space of a plain template is lost."""


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    for t in rep["output"]["templates"]:
        t["content"] = t["content"].strip(" \t\n\r\x0b\x0c\u00a0\ufeff\u2028\u2029")
    return rep
