"""envelope.developer-messages -- ENV-CONTRIB-ID, ENV-PRIORITY-FINITE.
Bug: a contribution's priority is checked before its id, so one with a blank id and a priority
that is not a finite number is refused with contribution-priority-invalid instead of
contribution-id-blank.
"""

from __future__ import annotations

import math

from reference.envelope import contributions
from reference.errors import SpecError

from tests.blind.common import everywhere, swapped

_original = contributions.validate_contribution


def _validate_contribution(contribution, *, path="contribution"):
    p = contribution.priority
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p):
        raise SpecError("contribution-priority-invalid", f"{path}.priority must be a finite number, got {p!r}",
                        path=f"{path}.priority")
    return _original(contribution, path=path)


def handle(msg, call):
    with swapped(everywhere(_original, _validate_contribution)):
        return call()

# shown on: {"input": {"host": {"platform": "linux", "shell": "/bin/bash", "date": "2026-01-05"}, "contributions": [{"id": "  ", "priority": "high", "content": "x"}]}}
