"""profiles.config -- PROF-CONFIG-BINDING-PROFILE-EXACT.
Bug: a binding's profile is trimmed before it is read as a reference, so " base" is accepted as "base"."""

from reference.profiles.core import config
from tests.blind.common import everywhere, swapped

_original = config.parse_binding


def _parse(item, index, scope, d):
    if isinstance(item, dict) and isinstance(item.get("profile"), str):
        item = dict(item, profile=item["profile"].strip())
    return _original(item, index, scope, d)


def handle(msg, call):
    with swapped(everywhere(_original, _parse)):
        return call()
