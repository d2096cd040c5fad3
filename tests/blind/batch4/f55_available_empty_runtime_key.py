"""pi.models-available -- PI-CRED-EMPTY-NOT-CONFIGURED, PI-MODELS-AVAILABILITY.
Bug: a runtime key counts as configured when it is given at all ("provider in runtimeKeys"), so an empty --api-key makes the provider's models available."""

from reference.pi.core import credentials
from tests.blind.common import everywhere, swapped

_original = credentials.configured_source


def _configured(provider_id, config, env_auth, creds):
    if creds.runtime_keys.get(provider_id) == "":
        env = credentials._credential_env(creds, provider_id)
        return credentials.SOURCE_RUNTIME if credentials._required_present(env_auth, env) else None
    return _original(provider_id, config, env_auth, creds)


def handle(msg, call):
    with swapped(everywhere(_original, _configured)):
        return call()
