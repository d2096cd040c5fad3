"""profiles.compose -- PROF-COMPOSE, PROF-COMPOSE-IDEMPOTENT.
Bug: the block and the base are joined with [block, base].filter(Boolean).join("\n\n"), so with an empty base (or one that was only a block) the prompt ends with the end marker instead of the block and "\n\n"."""

from conformance.adapters.reference import profiles as adapter
from reference.profiles.core import compose
from tests.blind.common import swapped

ORIGINAL = compose.compose


def compose_variant(base, bodies, *, off=False):
    comp = ORIGINAL(base, bodies, off=off)
    if comp.system_prompt is not None and comp.block is not None and comp.system_prompt == comp.block + "\n\n":
        comp.system_prompt = comp.block
    return comp


def handle(msg, call):
    with swapped([(adapter, "compose", compose_variant)]):
        return call()
