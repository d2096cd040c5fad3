"""pi.models-auth -- PI-CRED-HEADER-LAYERS.
Bug: header layers are merged with an object spread ({...provider, ...model, ...override}), so names are compared case-sensitively and "x-api-key" does not replace "X-Api-Key"."""

from reference.pi.core import credentials
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(credentials.merge_headers, lambda base, override: {**base, **override})):
        return call()
