"""envelope.session -- ENV-SVC-CURRENT.
Bug: current's overrides are tested for truth, so an activeTools override of [] (or a cwd of "") is taken as no override and the stored value stands."""

from reference.envelope.build import EnvelopeRequest
from tests.blind.common import swapped

_original = EnvelopeRequest.with_overrides


def _with_overrides(self, *, provider=..., activeTools=None, cwd=None):
    return _original(self, provider=provider, activeTools=activeTools or None, cwd=cwd or None)


def handle(msg, call):
    with swapped([(EnvelopeRequest, "with_overrides", _with_overrides)]):
        return call()
