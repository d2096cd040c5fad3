"""profiles.picker -- PROF-PICKER-WINDOW.
Bug: the window starts (rows - 1) // 2 rows before the selected item instead of rows // 2, so with
an even row count the selection sits one row higher than the middle (the fifth of ten, not the sixth).
"""

from __future__ import annotations

from reference.profiles.core import picker

from tests.blind.common import everywhere, swapped


def _visible_window(total: int, selected: int, rows: int):
    if total <= rows:
        return 0, total
    sel = min(max(selected, 0), total - 1)
    start = min(max(sel - (rows - 1) // 2, 0), total - rows)
    return start, start + rows


def handle(msg, call):
    with swapped(everywhere(picker.visible_window, _visible_window)):
        return call()
