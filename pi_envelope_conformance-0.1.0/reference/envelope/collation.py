"""Alphabetical order of contribution ids: the Unicode Collation Algorithm's root order.

The published extension sorts ids with JavaScript's ``localeCompare`` without a locale, which is
ICU's root collation. The reference uses :mod:`pyuca` (a pure-Python implementation of the UCA),
pinned to its newest table (DUCET of Unicode 10.0.0) so that the order never depends on the Python
version. It agrees with ICU's root collation on every example of note N3 and on ids made of ASCII
letters, digits and punctuation; for characters added after Unicode 10, or the few places where
CLDR's root tailors the DUCET, the two may differ.
"""

from __future__ import annotations

from functools import lru_cache

from pyuca.collator import Collator_10_0_0


@lru_cache(maxsize=1)
def _collator() -> Collator_10_0_0:
    return Collator_10_0_0()


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
