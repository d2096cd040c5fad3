"""A scenario file's case ids without loading it: the index a selection of cases reads to choose the
files it must load. A line scan where it is sure of every line, else a parse as the loader does."""

from __future__ import annotations

import re

# A key the scan understands: a plain word (or one quoted without escapes), perhaps with an edition
# after an "@" (``clauses@pi-1.6.0``, scenario format 2), a colon, then a space and the value or nothing.
_KEY = re.compile(r"""(?P<key>[A-Za-z_][A-Za-z0-9_-]*(?:@[A-Za-z0-9._-]+)?|"[A-Za-z_][A-Za-z0-9_-]*"|'[A-Za-z_][A-Za-z0-9_-]*')[ ]*:"""
                  r"""(?:[ ]+(?P<value>.*))?""")
# A case's id value as the scan reads it: an id, quoted or not, perhaps with a comment.
_ID_VALUE = re.compile(r"""(?:([a-z0-9][a-z0-9-]*)|"([a-z0-9][a-z0-9-]*)"|'([a-z0-9][a-z0-9-]*)')(?:[ ]+#.*)?""")
# The line breaks of YAML 1.1 (the C loader's) besides "\n", and a tab: a file holding one is parsed.
_UNUSUAL = ("\r", "\x85", "\u2028", "\u2029", "\t")


def parsed_ids(text: str) -> list[str] | None:
    """The string ids of the mappings in a scenario document's ``cases`` list, read by the parser
    the loader uses; ``None`` when the text does not parse."""
    from conformance.corpus.yamlio import load_data

    try:
        data = load_data(text)
    except Exception:  # any parser or constructor error: the loader reports it with its place
        return None
    cases = data.get("cases") if isinstance(data, dict) else None
    return [c["id"] for c in cases if isinstance(c, dict) and isinstance(c.get("id"), str)] \
        if isinstance(cases, list) else []


def scanned_ids(text: str) -> list[str] | None:
    """The case ids of an ordinary scenario file (text), read line by line, or ``None`` when a line is
    not of a form known to hold no other case id.

    Known forms: blank and comment lines; top-level ``key: value`` lines (``cases:`` with no value);
    the items of ``cases`` as block mappings, each ``- key: value`` at one dash column followed by
    ``key: value`` lines at its key column, exactly one of them ``id`` with an id (quoted or not)
    as its value; block sequences written at their key's column; and whatever lies deeper than a
    key, which belongs to that key's value. Another key's value must be one :func:`_certain_value`
    accepts. A flow-style case, an id with an anchor, tag, escape or block scalar, an explicit key,
    a merge key, a document marker, a tab or an unusual line break sends the file to the parser.
    """
    if any(mark in text for mark in _UNUSUAL):
        return None
    ids: list[str | None] = []
    in_cases = seen_cases = False
    dash = key_col = None  # the cases' dash column and the current case's key column
    deeper = None  # the spaces that begin a line deeper than the last key: part of its value
    sequence_at = None  # the column of a block sequence written at its key's column
    for line in text.split("\n"):
        if deeper is not None and line.startswith(deeper):  # most lines: no need to look further
            continue
        content = line.lstrip(" ")
        if not content or content.startswith("#"):
            continue
        col = len(line) - len(content)
        deeper = None
        is_dash = content == "-" or content.startswith("- ")
        if is_dash and col == sequence_at:
            deeper = " " * (col + 1)
            continue
        sequence_at = None
        if in_cases and is_dash and col == (col if dash is None else dash):
            dash, rest = col, content[1:].lstrip(" ")
            ids.append(None)
            key_col = None if not rest else len(line) - len(rest)
            if not rest:
                continue
            content, col = rest, key_col
        elif col == 0:
            if content.startswith(("---", "...", "%")):
                return None
            in_cases = False
        elif not (in_cases and col == (key_col or col) and dash is not None and col > dash and ids):
            return None
        else:
            key_col = col
        m = _KEY.fullmatch(content)
        if m is None:
            return None
        key, value = m.group("key").strip("'\""), (m.group("value") or "").strip(" ")
        if col == 0 and key == "cases":
            if value or seen_cases:
                return None
            in_cases = seen_cases = True
            continue
        if col != 0 and key == "id":
            idm = _ID_VALUE.fullmatch(value)
            if idm is None or ids[-1] is not None:
                return None
            ids[-1] = next(g for g in idm.groups() if g)
        elif not _certain_value(value):
            return None
        deeper = " " * (col + 1)
        sequence_at = col if not value or value.startswith("#") else None
    return [cid for cid in ids if cid is not None]  # a case without an id is the loader's error


def _certain_value(value: str) -> bool:
    """Whether a value written after a key holds nothing that another line could continue but the
    lines deeper than the key: empty, a comment, plain, a block scalar, an alias, or a quoted scalar
    or flow collection closed on its line, perhaps after an anchor or tag (which a case's id never
    has in a file the scan reads: an ``id`` value is read by :data:`_ID_VALUE` alone)."""
    if not value or value.startswith("#"):
        return True
    first = value[0]
    if first in "&!":  # an anchor or tag of the value: what follows it decides
        token, _, rest = value.partition(" ")
        return len(token) > 1 and _certain_value(rest.lstrip(" "))
    if first == "*":  # an alias: the whole value
        return re.fullmatch(r"\*[^ ,\[\]{}]+(?:[ ]+#.*)?", value) is not None
    if first in "?%@`,]}|>":
        return first in "|>"
    if first in "\"'[{":
        return _closed_on_line(value)
    return True


def _closed_on_line(value: str) -> bool:
    """Whether a quoted scalar or flow collection starting ``value`` ends on it (then only spaces
    or a comment follow)."""
    if value[0] in "[{" and not any(mark in value for mark in "\"'#"):  # most values: count brackets
        return value.count("[") + value.count("{") == value.count("]") + value.count("}")
    depth, quote, i = 0, "", 0
    while i < len(value):
        ch = value[i]
        if quote == '"':
            if ch == "\\":
                i += 1
            elif ch == '"':
                quote = ""
        elif quote == "'":
            if ch == "'" and value[i + 1:i + 2] == "'":
                i += 1
            elif ch == "'":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "#" and value[i - 1] == " ":
            return False
        i += 1
        if not quote and depth <= 0:
            rest = value[i:].strip(" ")
            return depth == 0 and (not rest or rest.startswith("#"))
    return False
