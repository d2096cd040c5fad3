"""Alphabetical order of contribution ids: the Unicode Collation Algorithm's root order.

The published extension sorts ids with JavaScript's ``localeCompare`` without a locale, which is
ICU's root collation. The reference uses :mod:`pyuca` (a pure-Python implementation of the UCA),
pinned to its newest table (DUCET of Unicode 10.0.0) so that the order never depends on the Python
version. It agrees with ICU's root collation on every example of note N3 and on ids made of ASCII
letters, digits and punctuation; for characters added after Unicode 10, or the few places where
CLDR's root tailors the DUCET, the two may differ.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from pyuca.collator import COLL_ELEMENT_PATTERN, Collator_10_0_0


_HEX = frozenset("0123456789ABCDEFabcdef")


class LazyCollator(Collator_10_0_0):
    """pyuca's collator of the DUCET 10.0.0 whose table is filled as strings need it.

    Parsing the whole table (about 31,000 lines) took half a second, paid by every process that
    sorted one id. Here the table file is only split by the first code point of each entry; an
    entry is parsed and added when a string holding that code point is first collated. Collating
    a string only walks table entries made of the string's own code points (its prefixes, and a
    prefix extended by one of its non-starters), and each entry is added before the walk with all
    the others that start with the same code point, so every sort key is the one the full table
    gives (``tests/test_envelope_reference.py`` compares them).
    """

    def load(self, filename: str) -> None:
        """Group the entry lines of the table ``filename`` by their first code point."""
        self._waiting: dict[int, list[str]] = {}
        with open(filename, encoding="utf-8") as table:
            for line in table:
                if line.startswith("@implicitweights"):
                    span, base = line[len("@implicitweights"):].split("#", 1)[0].split(";")
                    start, end = span.split("..")
                    self.implicit_weights.append([int(start, 16), int(end, 16), int(base, 16)])
                elif line[:1] in _HEX:
                    self._waiting.setdefault(int(line.split(";", 1)[0].split(None, 1)[0], 16), []).append(line)

    def _add(self, code_point: int) -> None:
        """Parse and add the table's entries that start with ``code_point`` (once)."""
        for line in self._waiting.pop(code_point, ()):
            keys, elements = line.split("#", 1)[0].split(";", 1)
            self.table.add([int(k, 16) for k in keys.split()],
                           [[int(w, 16) for w in m.groups()] for m in COLL_ELEMENT_PATTERN.finditer(elements)])

    def sort_key(self, string: str) -> tuple[int, ...]:
        """The UCA sort key of ``string`` (pyuca's, with the entries it needs added first)."""
        for code_point in {ord(c) for c in unicodedata.normalize("NFD", string)}:
            self._add(code_point)
        return super().sort_key(string)


@lru_cache(maxsize=1)
def _collator() -> LazyCollator:
    return LazyCollator()


def id_sort_key(contribution_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The key that orders two ids of equal priority.

    Clauses:
        ENV-ORDER-TIEBREAK: ids compare in UCA root order (``a`` < ``A`` < ``a_b`` < ``a-b`` <
            ``a.b`` < ``a/b`` < ``a1`` < ``a10`` < ``a2`` < ``b``).
        ENV-ORDER-CODEPOINT: two distinct ids that the UCA ranks equal (for example ids that differ
            only by a completely ignorable character) are ordered by their Unicode code points, so
            the order never depends on registration order.

    Args:
        contribution_id: the id, any Unicode string.

    Returns:
        A tuple ``(uca_key, code_points)``; compare keys with ``<``.
    """
    return (tuple(_collator().sort_key(contribution_id)), tuple(ord(c) for c in contribution_id))
