"""pi.models-auth -- PI-CRED-HEADER-LAYERS.
Bug: a header that overrides one of another case replaces its value but keeps the earlier
spelling of its name (a case-insensitive map updated in place), where the later spelling is kept.
"""

from __future__ import annotations

from reference.pi.core import credentials

from tests.blind.common import everywhere, swapped


def _merge_headers(base, override):
    out = dict(base)
    for name, value in override.items():
        existing = [k for k in out if k.lower() == name.lower()]
        out[existing[0] if existing else name] = value
    return out


def handle(msg, call):
    with swapped(everywhere(credentials.merge_headers, _merge_headers)):
        return call()

# shown on: {"input": {"modelsJson": {"providers": {"p": {"baseUrl": "https://x", "api": "openai-completions", "apiKey": "k", "headers": {"x-team": "a"}, "models": [{"id": "m", "headers": {"X-Team": "b"}}]}}}, "provider": "p", "model": "m"}}
