"""The collations a clause of the catalogue may name (its ``collation`` field): how the text that
the clause orders is compared. Pure data: the catalogue's model checks the names, the docs show the
descriptions, and the adapter guide (``conformance/ADAPTERS.md``, "Orderings") gives a one-line
way to get each in JavaScript, Python and Rust."""

from __future__ import annotations

COLLATIONS: dict[str, str] = {
    "code-point": "by Unicode code point, the first differing code point deciding and a prefix first "
                  "(UTF-8 byte order; not UTF-16 code unit order)",
    "lower-case-code-point": "by each string's Unicode lower-case mapping (full mapping, final sigma "
                             "included) in code point order, then, for strings that map alike, by "
                             "code point",
    "uca-root": "by the Unicode Collation Algorithm's root order (the DUCET, no tailoring, punctuation "
                "not ignorable), then, for strings it ranks equal, by code point",
}
"""Each collation's name and what it compares, in the words the docs show."""
