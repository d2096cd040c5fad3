"""envelope.environment -- ENV-ENV-FORMAT, ENV-DECISION-ENVIRONMENT.
Bug: the host's date is checked only for its `YYYY-MM-DD` shape, so a day that does not exist
(`2026-02-30`) is reported instead of being refused as environment-date-invalid.
"""

from __future__ import annotations

from reference.envelope import environment
from reference.errors import SpecError

from tests.blind.common import everywhere, swapped


def _check_date(value, *, path="date"):
    if not isinstance(value, str) or not environment._DATE.match(value):
        raise SpecError("environment-date-invalid", f"{path} must be YYYY-MM-DD, got {value!r}", path=path)
    return value


def handle(msg, call):
    with swapped(everywhere(environment.check_date, _check_date)):
        return call()

# shown on: {"input": {"cwd": "/w", "host": {"platform": "linux", "shell": "/bin/bash", "date": "2026-02-30", "timezone": "UTC"}}}
