"""pi.packages-resolve -- PI-PKG-PATTERN-DOT-SLASH.
Bug: a leading "./" in a filter pattern or exact path is kept, so "./prompts/*.md" (or "+./x", "-./x", "!./x") never matches the package-relative path "prompts/a.md"."""

from tests.blind.common import rewrite_filters


def _fix(lst):
    if not isinstance(lst, list):
        return lst, False
    out = []
    for e in lst:
        if isinstance(e, str):
            pre = e[0] if e[:1] in ("!", "+", "-") else ""
            body = e[len(pre):]
            if body.startswith("./"):
                e = pre + "\u2400nomatch\u2400/" + body[2:]
        out.append(e)
    return out, out != lst

def handle(msg, call):
    inp, changed = rewrite_filters(msg["input"], _fix, top_level=False)
    return call(inp) if changed else call()
