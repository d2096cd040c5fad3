"""profiles.picker -- PROF-PICKER-FILTER.
Bug: the query is not trimmed: only an empty query keeps all, so a query of spaces keeps only items holding spaces and " gpt" finds nothing."""

from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped


def _filter(items, query):
    q = query.lower()
    return list(items) if not q else [i for i in items if q in i.lower()]


def handle(msg, call):
    with swapped(everywhere(picker.filter_items, _filter)):
        return call()
