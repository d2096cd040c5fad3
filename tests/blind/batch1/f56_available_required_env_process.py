"""pi.models-available -- PI-CRED-REQUIRED-ENV.
Bug: a provider's required variable (CLOUDFLARE_ACCOUNT_ID) is looked up in the environment only, never in the stored credential's env, so such a provider is not offered."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    changed = False
    for cred in (inp.get("authJson") or {}).values():
        if isinstance(cred, dict) and "env" in cred:
            del cred["env"]
            changed = True
    return call(inp) if changed else call()
