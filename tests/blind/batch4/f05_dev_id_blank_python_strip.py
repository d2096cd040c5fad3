"""envelope.developer-messages -- ENV-CONTRIB-ID, ENV-TRIM-JS.
Bug: an id is blank when Python's str.strip() leaves nothing, so an id of U+001C..U+001F or U+0085 is refused and an id of U+FEFF alone is accepted."""

import dataclasses

from reference.envelope import contributions
from reference.errors import SpecError
from reference.text import js_trim
from tests.blind.common import everywhere, swapped

_original = contributions.validate_contribution


def _validate(contribution, *, path="contribution"):
    cid = contribution.id
    if isinstance(cid, str):
        if not cid.strip():
            raise SpecError("contribution-id-blank", f"{path}.id is required and must not be blank", path=f"{path}.id")
        if not js_trim(cid):  # U+FEFF alone: not blank to str.strip()
            return _original(dataclasses.replace(contribution, id="x"), path=path)
    return _original(contribution, path=path)


def handle(msg, call):
    with swapped(everywhere(_original, _validate)):
        return call()
