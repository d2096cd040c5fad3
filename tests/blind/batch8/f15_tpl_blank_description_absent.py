"""pi.load-templates -- PI-TPL-DESCRIPTION, PI-TPL-ARGUMENT-HINT.
Bug: a frontmatter string is taken as absent when it is only white space (trimmed before the
emptiness test), so `description: "  "` falls back to the body's first line.
"""

from __future__ import annotations

from reference.pi.core import templates

from tests.blind.common import everywhere, swapped


def _frontmatter_string(fields, key):
    value = fields.get(key)
    return value if isinstance(value, str) and value.strip() else None


def handle(msg, call):
    with swapped(everywhere(templates.frontmatter_string, _frontmatter_string)):
        return call()

# shown on: {"input": {"agentDir": "agent", "cwd": "proj"}, "tree": {"agent/prompts/review.md": "---\ndescription: \"  \"\n---\nLook at $1\n"}}
