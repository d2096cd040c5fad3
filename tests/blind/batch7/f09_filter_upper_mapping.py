"""profiles.picker -- PROF-PICKER-FILTER.
Bug: the filter ignores case by comparing upper-case mappings (toUpperCase) instead of lower-case
ones, so "ss" finds "ß" (upper "SS") and "fi" finds the ligature "ﬁ".
"""

from __future__ import annotations

from reference.profiles.core import picker
from reference.text import js_trim

from tests.blind.common import everywhere, swapped


def _filter_items(items, query):
    q = js_trim(query).upper()
    return list(items) if not q else [i for i in items if q in i.upper()]


def handle(msg, call):
    with swapped(everywhere(picker.filter_items, _filter_items)):
        return call()


# shown on: {"op": "profiles.picker", "input": {"action": "filter", "items": ["Straße", "Strasse"], "query": "ss"}}
