"""envelope.developer-messages -- ENV-FILTER-PROVIDERS.
Bug: the providers filter is skipped when the list is empty (if (providers?.length) ...), so providers: [] keeps the contribution for every provider instead of none."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    changed = False
    for c in inp.get("contributions") or []:
        if isinstance(c, dict) and c.get("providers") == []:
            c["providers"] = None
            changed = True
    return call(inp) if changed else call()
