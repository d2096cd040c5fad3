"""profiles.load -- PROF-FILE-EXT, PROF-LOAD-CASE, PROF-FILE-EMPTY-STEM.
Bug: profile files are found with name.endsWith(".md"), so "Review.MD" or "a.Md" are passed over silently instead of being profiles."""

import os

from tests.blind.common import profile_dirs


def handle(msg, call):
    root = msg.get("root")
    inp = msg["input"]
    if root:
        for d in profile_dirs(root, inp):
            if not os.path.isdir(d) or os.path.islink(d) and not os.path.isdir(os.path.realpath(d)):
                continue
            for name in os.listdir(d):
                if name.lower().endswith(".md") and not name.endswith(".md"):
                    os.rename(os.path.join(d, name), os.path.join(d, name + "~hidden"))
    return call()
