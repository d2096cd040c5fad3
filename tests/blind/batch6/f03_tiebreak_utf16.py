"""envelope.developer-messages -- ENV-ORDER-CODEPOINT.
Bug: ids that the root collation ranks equal are ordered by UTF-16 code units (JavaScript's `<` on
strings) instead of code points, so a character beyond the BMP sorts before one in U+E000..U+FFFF.
"""

from __future__ import annotations

from reference.envelope import collation

from tests.blind.common import everywhere, swapped

_original = collation.id_sort_key


def _id_sort_key(contribution_id: str):
    units = contribution_id.encode("utf-16-be", "surrogatepass")
    code_units = tuple(int.from_bytes(units[i:i + 2], "big") for i in range(0, len(units), 2))
    return (_original(contribution_id)[0], code_units)


def handle(msg, call):
    with swapped(everywhere(_original, _id_sort_key)):
        return call()
