"""profiles.load -- PROF-ID, PROF-DECISION-LOADING.
Bug: the id length check is id.length < 64, so an id of exactly 64 characters is refused with profile-id."""

import json
import os

from tests.blind.common import profile_dirs
import re


def handle(msg, call):
    root = msg.get("root")
    inp = msg["input"]
    renamed = {}
    if root:
        for d in profile_dirs(root, inp):
            if not os.path.isdir(d):
                continue
            for name in os.listdir(d):
                stem = name[:-3]
                if name.lower().endswith(".md") and len(stem) == 64 and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", stem) and ".." not in stem:
                    new = stem + "_" + name[-3:]
                    os.rename(os.path.join(d, name), os.path.join(d, new))
                    renamed[new] = name
                    renamed[stem + "_"] = stem
    rep = call()
    if renamed and rep.get("type") == "result":
        text = json.dumps(rep["output"])
        for new, old in sorted(renamed.items(), key=lambda kv: -len(kv[0])):
            text = text.replace(json.dumps(new)[1:-1], json.dumps(old)[1:-1])
        rep["output"] = json.loads(text)
    return rep
