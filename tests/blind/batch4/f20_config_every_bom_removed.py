"""profiles.config -- PROF-CONFIG-JSON.
Bug: byte-order marks are removed with lstrip("\\ufeff"), so a config.json that starts with two BOMs is read instead of being refused with config-parse."""

from reference.profiles.core import config
from tests.blind.common import everywhere, swapped

_original = config.parse_json_text


def _parse(text):
    return _original(text.lstrip("\ufeff"))


def handle(msg, call):
    with swapped(everywhere(_original, _parse)):
        return call()
