"""pi.parse-args -- PI-TPL-ARGS-QUOTE, PI-DECISION-TEMPLATES.
Bug: a quote opens wherever it stands (shell-like), not only at the start of an argument, so a"b c" gives the one argument ab c instead of a"b and c"."""

import re
import sys


WS = re.compile(r"\s")  # Python's \s on str is close to JavaScript's; checked against the reference below

def _parse(text, anywhere):
    args, cur, i, n = [], None, 0, len(text)
    while i < n:
        ch = text[i]
        if WS.match(ch):
            if cur is not None:
                args.append(cur)
                cur = None
            i += 1
            continue
        if ch in "\"'" and (cur is None or anywhere):
            j, buf, closed = i + 1, "", False
            while j < n:
                if text[j] == "\\" and j + 1 < n and text[j + 1] == ch:
                    buf += ch
                    j += 2
                    continue
                if text[j] == ch:
                    closed = True
                    break
                buf += text[j]
                j += 1
            if closed:
                cur = (cur or "") + buf
                i = j + 1
                continue
            cur = (cur or "") + ch
            i += 1
            continue
        cur = (cur or "") + ch
        i += 1
    if cur is not None:
        args.append(cur)
    return args

def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    text = msg["input"]["text"]
    if _parse(text, False) == rep["output"]["args"]:
        rep["output"]["args"] = _parse(text, True)
    else:
        print("f31: own parser disagrees with the reference on %r; answer left as is" % text, file=sys.stderr)
    return rep
