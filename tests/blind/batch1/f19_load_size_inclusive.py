"""profiles.load -- PROF-LOAD-SIZE, PROF-DECISION-LOADING.
Bug: the size check is size >= 65536, so a body of exactly 65,536 UTF-8 bytes is skipped with profile-too-large instead of loading."""

import os

from tests.blind.common import profile_dirs


def handle(msg, call):
    root = msg.get("root")
    if root:
        for d in profile_dirs(root, msg["input"]):
            if not os.path.isdir(d):
                continue
            for name in os.listdir(d):
                p = os.path.join(d, name)
                if name.lower().endswith(".md") and os.path.isfile(p) and not os.path.islink(p):
                    data = open(p, "rb").read()
                    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
                    if len(body) == 65536:
                        open(p, "ab").write(b" ")
    return call()
