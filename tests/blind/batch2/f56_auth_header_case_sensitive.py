"""pi.models-auth -- PI-CRED-HEADER-LAYERS, PI-CRED-AUTH-HEADER.
Bug: header layers are merged with an object spread, so names are compared case-sensitively: "x-api-key" from an override does not replace "X-Api-Key" from the provider, and both are sent."""

from reference.pi.core import credentials
from tests.blind.common import everywhere, swapped


def merge_headers(base, override):
    return {**base, **override}


def handle(msg, call):
    with swapped(everywhere(credentials.merge_headers, merge_headers)):
        return call()
