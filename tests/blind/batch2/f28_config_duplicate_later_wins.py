"""profiles.config -- PROF-CONFIG-BINDING-DUPLICATE.
Bug: bindings are collected in a map by id, so a binding whose id repeats an earlier one replaces it (in the earlier one's place) instead of being dropped."""

from reference.profiles.core import config
from tests.blind.common import swapped

ORIGINAL = config._bindings


def bindings(value, scope, d):
    if not isinstance(value, list) or len(value) > config.MAX_BINDINGS:
        return ORIGINAL(value, scope, d)
    out, where = [], {}
    for index, item in enumerate(value):
        binding = config.parse_binding(item, index, scope, d)
        if binding is None:
            continue
        if binding.id in where:
            d("warn", "config-binding-id", f"bindings[{where[binding.id][1]}]",
              f"binding id {binding.id!r} used twice; the earlier one is replaced", "duplicate")
            out[where[binding.id][0]] = binding
            continue
        where[binding.id] = (len(out), index)
        out.append(binding)
    return out


def handle(msg, call):
    with swapped([(config, "_bindings", bindings)]):
        return call()
