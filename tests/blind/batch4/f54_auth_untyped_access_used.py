"""pi.models-auth -- PI-CRED-STORED-UNTYPED.
Bug: a stored credential without type takes its key from "key", else from "access", so an untyped entry holding only an access token decides as auth.json instead of leaving the next source to decide."""

from reference.pi.core import credentials
from tests.blind.common import everywhere, swapped

_original = credentials._stored_key


def _stored(entry):
    if isinstance(entry, dict) and "type" not in entry and not entry.get("key"):
        access = entry.get("access")
        return access if isinstance(access, str) and access else None
    return _original(entry)


def handle(msg, call):
    with swapped(everywhere(_original, _stored)):
        return call()
