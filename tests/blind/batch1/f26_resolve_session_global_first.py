"""profiles.resolve -- PROF-REF-SESSION.
Bug: a session selection's bare profile name is looked up in the global scope first and only then in the trusted project."""

import copy
import os


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    s = inp.get("session")
    root = msg.get("root")
    if root and isinstance(s, dict) and s.get("mode") == "manual" and isinstance(s.get("profile"), str) and ":" not in s["profile"]:
        d = os.path.join(root, inp.get("agentDir", ""), "system-prompts", "profiles")
        if os.path.isdir(d) and any(n.lower() == s["profile"].lower() + ".md" and n[:-3] == s["profile"] for n in os.listdir(d)):
            s["profile"] = "global:" + s["profile"]
            return call(inp)
    return call()
