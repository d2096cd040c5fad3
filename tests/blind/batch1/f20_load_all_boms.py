"""profiles.load -- PROF-LOAD-BOM.
Bug: leading byte-order marks are stripped with a loop (replace(/^\uFEFF+/, "")), so a second BOM is removed too."""

import os

from tests.blind.common import profile_dirs


def handle(msg, call):
    root = msg.get("root")
    inp = msg["input"]
    if root:
        for d in profile_dirs(root, inp):
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
