"""envelope.environment -- ENV-ENV-TIMEZONE.
Bug: the timezone name is trimmed before use, so a name with white space around it loses it and
a name of white space only is written as "unknown".
"""

from __future__ import annotations

from reference.envelope import environment
from reference.text import js_trim

from tests.blind.common import everywhere, swapped

_original = environment.render_environment


def _render_environment(cwd, shell, date, timezone):
    return _original(cwd, shell, date, js_trim(timezone) if timezone is not None else None)


def handle(msg, call):
    with swapped(everywhere(environment.render_environment, _render_environment)):
        return call()


# shown on: {"op": "envelope.environment", "input": {"cwd": "/w", "host": {"platform": "linux", "date": "2026-12-04", "shell": "/bin/bash", "timezone": " "}}}
