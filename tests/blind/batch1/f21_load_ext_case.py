"""profiles.load -- PROF-FILE-EXT, PROF-LOAD-CASE, PROF-FILE-EMPTY-STEM.
Bug: profile files are found with name.endsWith(".md"), so "Review.MD" or "a.Md" are passed over silently instead of being profiles."""

import os


def handle(msg, call):
    root = msg.get("root")
    inp = msg["input"]
    if root:
        for d in (os.path.join(root, inp.get("agentDir", ""), "system-prompts", "profiles"),
                  os.path.join(root, inp.get("cwd", ""), ".pi", "system-prompts", "profiles")):
            if not os.path.isdir(d) or os.path.islink(d) and not os.path.isdir(os.path.realpath(d)):
                continue
            for name in os.listdir(d):
                if name.lower().endswith(".md") and not name.endswith(".md"):
                    os.rename(os.path.join(d, name), os.path.join(d, name + "~hidden"))
    return call()
