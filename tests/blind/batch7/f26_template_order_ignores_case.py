"""pi.load-templates -- PI-TPL-ORDER.
Bug: the files of a template folder are sorted ignoring letter case (as a locale-aware sort
would), not by code point, so "apply.md" loads before "Build.md".
"""

from __future__ import annotations

from reference.pi.host import disk

from tests.blind.common import everywhere, swapped

_original = disk.template_files


def _template_files(directory):
    return sorted(_original(directory), key=lambda p: p.name.lower())


def handle(msg, call):
    with swapped(everywhere(disk.template_files, _template_files)):
        return call()


# shown on: {"op": "pi.load-templates", "input": {"agentDir": "agent", "cwd": "proj"}, "tree": {"agent/prompts/Build.md": "Build it", "agent/prompts/apply.md": "Apply it"}}
