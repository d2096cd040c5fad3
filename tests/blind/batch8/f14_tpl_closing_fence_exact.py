"""pi.load-templates -- PI-TPL-FRONTMATTER.
Bug: the frontmatter is closed only by a line that is exactly `---`, so a closing line with
anything after the dashes (`--- ` or `----`) leaves the file without frontmatter.
"""

from __future__ import annotations

import re

from reference.pi.core import templates

from tests.blind.common import everywhere, swapped

_original = templates.split_frontmatter


def _split_frontmatter(raw):
    text = templates.normalise_text(raw)
    if text.startswith("---") and not re.search(r"\n---(\n|$)", text[3:]):
        return templates.Frontmatter({}, text, False)
    return _original(raw)


def handle(msg, call):
    with swapped(everywhere(_original, _split_frontmatter)):
        return call()

# shown on: {"input": {"agentDir": "agent", "cwd": "proj"}, "tree": {"agent/prompts/review.md": "---\ndescription: Review it\n--- \nLook at $1\n"}}
