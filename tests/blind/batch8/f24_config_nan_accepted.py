"""profiles.config -- PROF-CONFIG-JSON.
Bug: config.json is read with a lenient JSON parser that takes `NaN`, `Infinity` and `-Infinity`
as numbers, where such a file is not JSON and the whole config is ignored.
"""

from __future__ import annotations

import json

from reference.profiles.core import config

from tests.blind.common import everywhere, swapped


def _parse_json_text(text):
    if text.startswith("\ufeff"):
        text = text[1:]
    return json.loads(text)


def handle(msg, call):
    with swapped(everywhere(config.parse_json_text, _parse_json_text)):
        return call()

# shown on: {"input": {"scope": "global", "text": "{\"version\": 1, \"bindings\": [{\"profile\": \"a\", \"priority\": Infinity, \"match\": [{\"provider\": \"*\"}]}]}"}}
