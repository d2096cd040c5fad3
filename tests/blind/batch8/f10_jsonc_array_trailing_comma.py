"""pi.models-load -- PI-MODELS-JSON-COMMENTS.
Bug: a trailing comma is removed only before `}`, so a models.json whose array ends in a comma
(`"models": [{...},]`) is refused as not valid JSON.
"""

from __future__ import annotations

import re

from reference.pi.core import models_file

from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(models_file, "_STRING_OR_TRAILING_COMMA", re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}])'))]):
        return call()

# shown on: {"input": {"modelsJsonText": "{\"providers\": {\"p\": {\"baseUrl\": \"https://x\", \"api\": \"openai-completions\", \"apiKey\": \"k\", \"models\": [{\"id\": \"m\"},]}}}"}}
