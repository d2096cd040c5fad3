"""pi.package-source -- PI-PKG-SOURCE-TRAILING-SLASH.
Bug: the trailing ".git" is removed before the trailing slashes, so "owner/repo.git/" keeps ".git" in path and identity."""

import re


def handle(msg, call):
    rep = call()
    out = rep.get("output") or {}
    if rep.get("type") == "result" and out.get("type") == "git" and out.get("path"):
        src = msg["input"]["source"].strip()
        if out.get("ref"):
            src = src[: src.rfind("@")]
        if re.search(r"\.git/+$", src):
            old = out["path"]
            out["path"] = old + ".git"
            if out["identity"].endswith(old):
                out["identity"] = out["identity"] + ".git"
    return rep
