"""pi.validate-message -- PI-MSG-PROBLEMS.
Bug: a key is written in the dotted form when Python's str.isidentifier accepts it, so keys with
letters beyond ASCII ("r\u00e8gles") are written ".r\u00e8gles" instead of '["r\u00e8gles"]'.
"""

from __future__ import annotations

import json

from reference.pi.core import messages

from tests.blind.common import everywhere, swapped


def _format_path(parts, root: str = "$") -> str:
    out = [root]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif part.isidentifier():
            out.append(f".{part}")
        else:
            out.append("[" + json.dumps(part, ensure_ascii=False) + "]")
    return "".join(out)


def handle(msg, call):
    with swapped(everywhere(messages.format_path, _format_path)):
        return call()
