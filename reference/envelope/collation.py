"""Alphabetical order of contribution ids: the Unicode Collation Algorithm's root order, as the
published extension's ``localeCompare`` gives it, from a pinned table so that the order never
depends on the Python version."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pyuca.collator import COLL_ELEMENT_PATTERN, Collator_10_0_0


_HEX = frozenset("0123456789ABCDEFabcdef")
#: ``@implicitweights START..END; BASE``: a range of code points and the base of their weights.
_IMPLICIT = re.compile(r"\n@implicitweights\s+([0-9A-Fa-f]+)\.\.([0-9A-Fa-f]+)\s*;\s*([0-9A-Fa-f]+)")


def _trie_pattern(words: list[str]) -> str:
    """A regular expression matching exactly ``words`` (non-empty, literal ``[0-9A-F]`` text), as a
    trie so that a match attempt costs the length of a word, not the number of words."""
    heads: dict[str, list[str]] = {}
    for word in words:
        heads.setdefault(word[0], []).append(word[1:])
    branches = []
    for head, tails in sorted(heads.items()):
        rest = [tail for tail in tails if tail]
        tail = _trie_pattern(rest) if rest else ""
        branches.append(head + (f"(?:{tail})?" if rest and len(rest) < len(tails) else tail))
    return branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"


class LazyCollator(Collator_10_0_0):
    """pyuca's collator of the DUCET 10.0.0 whose table is filled as strings need it.

    Parsing the whole table (about 31,000 lines) took half a second, and splitting it by first code
    point a tenth of one, paid by every process that sorted one id. Here the table file is read as
    one string. When a string holding code points not seen yet is collated, the entry lines that
    start with a code point of the same block of 256 as one of them are found with one scan of that
    string (a regular expression: the scan looks for a first code point written as the table writes
    them all, ``%04X``, upper-case hex digits, four or more, then a blank or ``;``; the tests check
    the table for it) and grouped by first code point; the entries of the string's own code points
    are parsed and added. After :attr:`SCANS_BEFORE_SPLIT` scans (a process collating strings of
    many blocks), the lines of the blocks not scanned yet are grouped by one split of the table
    instead. Collating a string only walks table entries made of the string's own code points (its
    prefixes, and a prefix extended by one of its non-starters), and each entry is added before the
    walk with all the others that start with the same code point, so every sort key is the one the
    full table gives (``tests/test_envelope_reference.py`` compares them).
    """

    #: How many scans for blocks' entries before the table's other blocks are split whole.
    SCANS_BEFORE_SPLIT = 16

    def load(self, filename: str) -> None:
        """Read the table ``filename``: its implicit weights now, its entries as strings need them."""
        with open(filename, encoding="utf-8") as table:
            self._text: str | None = "\n" + table.read()
        for start, end, base in _IMPLICIT.findall(self._text):
            self.implicit_weights.append([int(start, 16), int(end, 16), int(base, 16)])
        self._waiting: dict[int, list[str]] = {}  # entry lines found and not added, by first code point
        self._blocks: set[int] = set()  # the blocks (code point >> 8) whose lines are in _waiting or added
        self._added: set[int] = set()
        self._scans = 0

    def _find(self, blocks: set[int]) -> None:
        """Group the entry lines of ``blocks`` (none found yet) into ``_waiting``: one scan while
        fewer than :attr:`SCANS_BEFORE_SPLIT` were made, else one split of the lines of every block
        not found yet (after which every block is found)."""
        if self._scans < self.SCANS_BEFORE_SPLIT:
            self._scans += 1
            heads = sorted(("%04X" % (block << 8))[:-2] for block in blocks)
            found = re.findall(r"\n((%s[0-9A-F]{2})[ \t;][^\n]*)" % _trie_pattern(heads), self._text)
            self._blocks |= blocks
        else:
            found = [(line, line.split(";", 1)[0].split(None, 1)[0])
                     for line in self._text.splitlines() if line[:1] in _HEX]
            found = [(line, first) for line, first in found if int(first, 16) >> 8 not in self._blocks]
            self._text = None
        for line, first in found:
            self._waiting.setdefault(int(first, 16), []).append(line)

    def sort_key(self, string: str) -> tuple[int, ...]:
        """The UCA sort key of ``string`` (pyuca's, with the entries it needs added first)."""
        wanted = {ord(c) for c in unicodedata.normalize("NFD", string)} - self._added
        if wanted:
            blocks = {code_point >> 8 for code_point in wanted} - self._blocks
            if blocks and self._text is not None:
                self._find(blocks)
            self._added |= wanted
            for code_point in wanted:
                for line in self._waiting.pop(code_point, ()):
                    keys, elements = line.split("#", 1)[0].split(";", 1)
                    self.table.add([int(k, 16) for k in keys.split()],
                                   [[int(w, 16) for w in m.groups()]
                                    for m in COLL_ELEMENT_PATTERN.finditer(elements)])
        return super().sort_key(string)


@lru_cache(maxsize=1)
def _collator() -> LazyCollator:
    return LazyCollator()


def id_sort_key(contribution_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The key that orders two ids of equal priority.

    The published extension sorts ids with JavaScript's ``localeCompare`` without a locale, which
    is ICU's root collation. This key uses :mod:`pyuca` (a pure-Python implementation of the UCA),
    pinned to its newest table (DUCET of Unicode 10.0.0) so that the order never depends on the
    Python version. It agrees with ICU's root collation on every example of
    ENV-DECISION-CONTRIBUTIONS and on ids made of ASCII letters, digits and punctuation; for
    characters added after Unicode 10, or the few places where CLDR's root tailors the DUCET, the
    two may differ.

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
