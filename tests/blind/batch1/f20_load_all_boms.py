"""profiles.load -- PROF-LOAD-BOM.
Bug: leading byte-order marks are stripped with a loop (replace(/^\uFEFF+/, "")), so a second BOM is removed too."""

import os


def handle(msg, call):
    root = msg.get("root")
    inp = msg["input"]
    if root:
        for d in (os.path.join(root, inp.get("agentDir", ""), "system-prompts", "profiles"),
                  os.path.join(root, inp.get("cwd", ""), ".pi", "system-prompts", "profiles")):
            if not os.path.isdir(d):
                continue
            for name in os.listdir(d):
                p = os.path.join(d, name)
                if os.path.isfile(p) and not os.path.islink(p):
                    data = open(p, "rb").read()
                    if data.startswith(b"\xef\xbb\xbf\xef\xbb\xbf"):
                        while data.startswith(b"\xef\xbb\xbf\xef\xbb\xbf"):
                            data = data[3:]
                        open(p, "wb").write(data)
    return call()
