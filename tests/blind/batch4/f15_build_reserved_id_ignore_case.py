"""envelope.build -- ENV-CONTRIB-ID-RESERVED.
Bug: the reserved id is compared ignoring case, so a contribution with the id "Environment" (or "ENVIRONMENT") is refused as contribution-id-reserved."""

from reference.envelope import contributions
from reference.errors import SpecError
from tests.blind.common import everywhere, swapped

_original = contributions.validate_contribution


def _validate(contribution, *, path="contribution"):
    cid = contribution.id
    if isinstance(cid, str) and cid != "environment" and cid.lower() == "environment":
        raise SpecError("contribution-id-reserved", f"{path}.id {cid!r} is reserved", path=f"{path}.id")
    return _original(contribution, path=path)


def handle(msg, call):
    with swapped(everywhere(_original, _validate)):
        return call()
