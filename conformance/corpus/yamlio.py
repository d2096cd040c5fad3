"""YAML reading with positions, shared by scenario, catalogue, expectations and golden files: a
document's plain data and each node's 1-based ``(line, column)``, so that a validation error names
the exact place. A document whose aliases expand without bound is never built."""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruamel.yaml import YAML

from conformance.corpus import yamlcache
from conformance.errors import validation_problem

Position = tuple[int, int]
PathKey = tuple[Any, ...]


@dataclass
class FileError:
    """An error in a suite file, printed as ``file:line:col: field: message``.

    Attributes:
        file: the file's path as given.
        line, column: 1-based position, or 0 when unknown.
        field: dotted field path (``cases[2].input.cwd``), or ``""`` for the whole file.
        message: what is wrong.
    """

    file: str
    line: int
    column: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        return f"{where}: {self.field + ': ' if self.field else ''}{self.message}"


def format_path(path: PathKey) -> str:
    """``('cases', 2, 'input', 'cwd')`` -> ``cases[2].input.cwd``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _plain(node: Any, path: PathKey, positions: dict[PathKey, Position]) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        out = {}
        for key, value in node.items():
            try:
                line, col = node.lc.key(key)
                positions[path + (key,)] = (line + 1, col + 1)
            except (KeyError, TypeError, AttributeError):
                pass
            out[key] = _plain(value, path + (key,), positions)
        return out
    if isinstance(node, CommentedSeq):
        out_list = []
        for i, value in enumerate(node):
            try:
                line, col = node.lc.item(i)
                positions[path + (i,)] = (line + 1, col + 1)
            except (KeyError, TypeError, AttributeError, IndexError):
                pass
            out_list.append(_plain(value, path + (i,), positions))
        return out_list
    if isinstance(node, str):
        return str(node)
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def load_with_positions(path: Path, display: str | None = None, *,
                        streams: bool = False) -> tuple[Any, Mapping[PathKey, Position]]:
    """Parse ``path`` as one YAML document (YAML 1.2, as ruamel.yaml's round-trip parser reads it).

    Returns ``(data, positions)``: plain data and a read-only mapping from paths to 1-based
    ``(line, column)``. Raises :class:`SuiteFileError` with the file, line and column for
    unreadable files, text that is not UTF-8, syntax errors and duplicate keys.
    """
    shown = display or str(path)
    return load_text_with_positions(read_text(path, shown, streams=streams), shown)


DEEP = "YAML error: nested too deeply to read"
"""The error of a document whose collections nest deeper than Python's recursion allows."""


def load_text_with_positions(text: str, shown: str) -> tuple[Any, Mapping[PathKey, Position]]:
    """:func:`load_with_positions` of a document already read (``shown``: its path as reported).
    A document whose aliases make a value contain itself, or expand it beyond
    :func:`alias_bound`, is refused at that alias's place (see :func:`check_aliases`) before any
    value is built, walked or kept in the cache; one nested too deeply to read, at its start
    (:data:`DEEP`).

    Fast first, exact where it must be: the document is parsed by ruamel.yaml's C loader (or taken
    from the parse cache, :mod:`conformance.corpus.yamlcache`), which knows the positions of the
    paths of at most two parts (a case, a clause, an entry); the full table comes from the slower
    round-trip parser only when a deeper position is asked for (:class:`Positions`). A document the
    C loader refuses or reads as anything but JSON data (a date, a set, a non-string key, a merge
    key) is read by the round-trip parser alone, so both roads give the same data and messages."""
    try:
        return _load_text_with_positions(text, shown)
    except RecursionError:
        raise SuiteFileError(FileError(shown, 1, 1, "", DEEP)) from None


def _load_text_with_positions(text: str, shown: str) -> tuple[Any, Mapping[PathKey, Position]]:
    found = _cached(text, "") or _cached(text, "rt")
    if found is None:
        from ruamel.yaml.error import MarkedYAMLError
        from ruamel.yaml.reader import ReaderError

        try:
            check_aliases(text)
        except MarkedYAMLError as exc:
            raise _suite_error(exc, shown) from None
        except ReaderError as exc:  # a character YAML allows nowhere (NUL, most C0 controls)
            before = text[:exc.position]
            raise SuiteFileError(FileError(shown, before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1, "",
                                           f"YAML error: the character U+{_code(exc.character):04X} is not allowed in YAML"
                                           )) from None
        found = _read_fast(text)
    if found is None:
        data, positions = _read_positioned(text, shown)
        _store(text, "rt", data, positions)
        return data, positions
    data, shallow = found
    return data, Positions(shallow, lambda: _full_table(text, shown, shallow))


def load_data(text: str, *, cache: bool = True) -> Any:
    """The data of one YAML document, exactly as ``YAML(typ="safe")`` reads it, without positions.

    Uses the parse cache unless ``cache`` is false. Raises ruamel.yaml's ``YAMLError`` (or the
    constructor's error) for a document it cannot read, ``ComposerError`` at the alias's place for
    one :func:`check_aliases` refuses, and a ``YAMLError`` saying so for one nested too deeply to
    read.
    """
    try:
        return _load_data(text, cache=cache)
    except RecursionError:
        from ruamel.yaml.error import YAMLError

        raise YAMLError(DEEP.removeprefix("YAML error: ")) from None


def _load_data(text: str, *, cache: bool) -> Any:
    found = (_cached(text, "") or _cached(text, "safe")) if cache else None
    if found is None:
        check_aliases(text)
        found = _read_fast(text, cache=cache)
    if found is not None:
        return found[0]
    from ruamel.yaml import YAML

    data = YAML(typ="safe", pure=True).load(text)
    if cache:
        _store(text, "safe", data, {(): (1, 1)})
    return data


class Positions(Mapping):
    """A document's table of positions, filled when needed.

    Paths of at most :data:`SHALLOW` parts are known from the fast read; looking up a deeper path,
    or iterating, reads the document again with the round-trip parser (once), which happens only
    when an error is to be reported.
    """

    def __init__(self, shallow: dict[PathKey, Position], full: Callable[[], dict[PathKey, Position]]) -> None:
        self._shallow = shallow
        self._load_full: Callable[[], dict[PathKey, Position]] | None = full
        self._full: dict[PathKey, Position] | None = None

    def _table(self) -> dict[PathKey, Position]:
        if self._full is None:
            assert self._load_full is not None
            self._full, self._load_full = self._load_full(), None
        return self._full

    def __getitem__(self, path: PathKey) -> Position:
        if self._full is None and len(path) <= SHALLOW:
            return self._shallow[path]
        return self._table()[path]

    def __iter__(self) -> Iterator[PathKey]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


SHALLOW = 2
_MERGE = "tag:yaml.org,2002:merge"


MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest suite file (scenario, golden, catalogue, expectations) the kit reads: some 300 times
the largest the suite holds. A larger one is a suite error, and so is a file that is not a regular
one (a FIFO would hang the run, a link to ``/dev/zero`` fill its memory)."""


_NOT_REGULAR = "not a regular file (a FIFO, a device or a socket)"


def _code(character: int | str) -> int:
    return ord(character) if isinstance(character, str) else int(character)


NOT_FOLLOWED = "a symbolic link, which is not followed here: put the file itself in its place"
"""Why :func:`read_bytes` without ``follow`` refuses a link."""


def read_bytes(path: str | os.PathLike, *, streams: bool = False, follow: bool = True) -> bytes:
    """The bytes of the regular file ``path`` (a link followed, unless ``follow`` is false), at
    most :data:`MAX_FILE_BYTES`; with ``streams`` (a file the user names, such as
    ``--expectations <(...)``) a pipe or a character device too, read to its end within the same
    bound. Opened without waiting on a FIFO. Raises ``OSError`` for anything else, saying what it
    is (:data:`NOT_FOLLOWED` for a link not followed)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow and os.path.islink(path):
        raise OSError(errno.ELOOP, NOT_FOLLOWED)
    try:
        fd = os.open(path, flags | (0 if follow else getattr(os, "O_NOFOLLOW", 0)))
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket, or a device without its driver: said as what it is
            raise OSError(errno.EINVAL, _NOT_REGULAR) from None
        if not follow and exc.errno == errno.ELOOP and os.path.islink(path):  # made a link since
            raise OSError(errno.ELOOP, NOT_FOLLOWED) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(mode) and not (streams and (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode))):
            raise OSError(errno.EINVAL, _NOT_REGULAR)
        if not stat.S_ISREG(mode) and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a stream the user named is waited for, as any program would
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        raise OSError(errno.EFBIG, f"larger than {MAX_FILE_BYTES:,} bytes, the bound of a suite file")
    finally:
        os.close(fd)


def read_text(path: Path, shown: str, *, streams: bool = False, follow: bool = True) -> str:
    """The text of a UTF-8 file (:func:`read_bytes`, ``streams`` and ``follow`` as there). Raises
    :class:`SuiteFileError` (file ``shown``, with the line and column of the first byte that is
    not UTF-8) when it cannot be read or decoded."""
    try:
        raw = read_bytes(path, streams=streams, follow=follow)
    except OSError as exc:
        raise SuiteFileError(FileError(shown, 0, 0, "", f"cannot read file: {exc.strerror or exc}")) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise SuiteFileError(FileError(shown, line, col, "", f"not UTF-8 text (byte 0x{raw[exc.start]:02x})")) from None


def yaml_problem(exc: Exception) -> tuple[int, int, str]:
    """``(line, column, problem)`` of a YAML parser's error: its 1-based place (0, 0 when it has
    none) and what it says, without ruamel.yaml's quoting of the text around it."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    problem = " ".join(p for p in (getattr(exc, "context", None), getattr(exc, "problem", None)) if p)
    return line, col, problem or str(exc)


def _read_positioned(text: str, shown: str) -> tuple[Any, dict[PathKey, Position]]:
    """The round-trip parse: data and every position, or the parser's error with its place."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="rt")
    try:
        node = yaml.load(text)
    except YAMLError as exc:  # a MarkedYAMLError gives its place
        raise _suite_error(exc, shown) from None
    positions: dict[PathKey, Position] = {(): (1, 1)}
    return _plain(node, (), positions), positions


def _suite_error(exc: Exception, shown: str) -> SuiteFileError:
    """A YAML parser's error as the :class:`SuiteFileError` of file ``shown``, at its place."""
    line, col, problem = yaml_problem(exc)
    return SuiteFileError(FileError(shown, line, col, "", f"YAML error: {problem}"))


def _full_table(text: str, shown: str, shallow: dict[PathKey, Position]) -> dict[PathKey, Position]:
    try:
        return _read_positioned(text, shown)[1]
    except SuiteFileError:  # not seen: both parsers accepted the document; keep what is known
        return shallow


def _read_fast(text: str, *, cache: bool = True) -> tuple[Any, dict[PathKey, Position]] | None:
    """Data and shallow positions from the C loader (kept in the parse cache unless ``cache`` is
    false) of a document :func:`check_aliases` accepted; ``None`` when the document must be read by
    an exact parser (refused by the C loader, or not plain JSON data)."""
    parsed = _parse_c(text)
    return _store(text, "", *parsed, cache=cache) if parsed is not None else None


ALIAS_ALLOWANCE = 10_000
ALIAS_PER_CHARACTER = 10


def alias_bound(text: str) -> int:
    """How many nodes (scalars, sequences and mappings, keys included) a document of ``text`` may
    hold once every alias is counted at the full size of the node it names:
    :data:`ALIAS_ALLOWANCE` plus :data:`ALIAS_PER_CHARACTER` per character. A document without
    aliases holds at most about one node per character; the suite's own files, which reuse
    values with aliases such as ``*two``, hold fewer than one node per five characters."""
    return ALIAS_ALLOWANCE + ALIAS_PER_CHARACTER * len(text)


def check_aliases(text: str) -> None:
    """Refuse a document whose aliases make a value contain itself (``a: &a [*a]``) or expand it
    beyond :func:`alias_bound` (an alias bomb: levels of lists of aliases of the level before).

    Reads the parser's events once, counting each alias at the size of the node it names, so
    nothing is expanded. Raises ruamel.yaml's ``ComposerError`` whose place is the offending
    alias. A document the parser refuses is left to the loader, which reports the syntax error
    before it builds any value: the C parser reads first, the exact one only when it refuses.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.composer import ComposerError
    from ruamel.yaml.error import MarkedYAMLError

    for reader in (_c_yaml, lambda: YAML(typ="rt")):
        try:
            problem = _alias_problem(reader().get_constructor_parser(text)[1], alias_bound(text))
        except MarkedYAMLError:  # refused: by the next parser too, or the loader says where
            continue
        if problem is not None:
            raise ComposerError(None, None, problem[1], problem[0])
        return


def _alias_problem(parser: Any, bound: int) -> tuple[Any, str] | None:
    """``(mark, message)`` of the first alias of ``parser``'s events that names a node still open
    around it, or that takes the document's node count past ``bound``; ``None`` when none does."""
    from ruamel.yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, ScalarEvent

    named: dict[str, tuple[Any, int | None]] = {}  # anchor -> (its mark, its size; None while open)
    open_nodes: list[tuple[str | None, Any, int]] = []  # (anchor, mark, count before it)
    count = 0
    while parser.check_event():
        event = parser.get_event()
        if isinstance(event, (ScalarEvent, CollectionStartEvent)):
            count += 1
            if isinstance(event, ScalarEvent):
                if event.anchor is not None:
                    named[event.anchor] = (event.start_mark, 1)
                continue
            open_nodes.append((event.anchor, event.start_mark, count - 1))
            if event.anchor is not None:
                named[event.anchor] = (event.start_mark, None)
        elif isinstance(event, CollectionEndEvent):
            anchor, mark, before = open_nodes.pop()
            if anchor is not None:
                named[anchor] = (mark, count - before)
        elif isinstance(event, AliasEvent):
            mark, size = named.get(event.anchor, (None, 1))  # an undefined alias: the loader says so
            if size is None:
                return event.start_mark, (f"alias *{event.anchor} stands inside the node it names (&{event.anchor} at "
                                          f"line {mark.line + 1}, column {mark.column + 1}): a value cannot contain "
                                          "itself")
            count += size
            if count > bound:
                return event.start_mark, (f"alias *{event.anchor} expands the document past {bound:,} nodes "
                                          f"(the limit: {ALIAS_ALLOWANCE:,} plus {ALIAS_PER_CHARACTER} per "
                                          "character of the file, each alias counted at the size of the node it "
                                          "names); write the values out or reuse fewer levels of aliases")
    return None


def _cached(text: str, reader: str) -> tuple[Any, dict[PathKey, Position]] | None:
    """The cache entry of ``text`` as read by ``reader`` ("" for the C loader, whose reading both
    exact parsers share; "rt" or "safe" for a document only that exact parser reads)."""
    return yamlcache.get(yamlcache.key_of(reader + "\n" + text), _decoded)


def _store(text: str, reader: str, data: Any, positions: Mapping[PathKey, Position], *, cache: bool = True
           ) -> tuple[Any, dict[PathKey, Position]] | None:
    """Keep plain JSON data and its shallow positions in the cache; returns them as a cache hit
    would (a fresh tree: no shared aliases), or ``None`` for data that is not plain JSON."""
    if not _json_exact(data):
        return None
    encoded = _encoded(data, {p: pos for p, pos in positions.items() if len(p) <= SHALLOW})
    if cache:
        yamlcache.put(yamlcache.key_of(reader + "\n" + text), encoded)
    return _decoded(json.loads(encoded))


def _encoded(data: Any, positions: Mapping[PathKey, Position]) -> str:
    return json.dumps({"data": data, "positions": [[list(p), line, col] for p, (line, col) in positions.items()]},
                      ensure_ascii=False)


_ENTRY_SHAPE = {"data": object, "positions": [[object]]}


def _decoded(document: Any) -> tuple[Any, dict[PathKey, Position]] | None:
    """Data and positions of a cache entry (``{"data", "positions": [[path, line, column], ...]}``,
    each path a list of keys and indexes), or ``None`` when the entry is not of that shape."""
    if not yamlcache.matches(document, _ENTRY_SHAPE):
        return None
    positions: dict[PathKey, Position] = {}
    for item in document["positions"]:
        if len(item) != 3 or not yamlcache.matches(item[0], [(str, int)]) or not yamlcache.matches(item[1:], [int]):
            return None
        positions[tuple(item[0])] = (item[1], item[2])
    return document["data"], positions


@lru_cache(maxsize=1)
def _c_yaml() -> YAML:
    from ruamel.yaml import YAML

    return YAML(typ="safe")  # ruamel.yaml.clib's C parser when installed, else the pure one


def _parse_c(text: str) -> tuple[Any, dict[PathKey, Position]] | None:
    try:
        loader, _ = _c_yaml().get_constructor_parser(text)
        node = loader.composer.get_single_node()
        if node is not None and "<<" in text and _has_merge_key(node):
            return None
        data = loader.construct_document(node) if node is not None else None
    except Exception:  # the exact parser reads it again and reports any error with its place
        return None
    positions: dict[PathKey, Position] = {(): (1, 1)}
    if node is not None and not _shallow_positions(node, data, (), positions):
        return None
    return data, positions


def _has_merge_key(node: Any, seen: set[int] | None = None) -> bool:
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    seen = set() if seen is None else seen
    if id(node) in seen:
        return False
    seen.add(id(node))
    if isinstance(node, MappingNode):
        return any(k.tag == _MERGE or _has_merge_key(k, seen) or _has_merge_key(v, seen) for k, v in node.value)
    if isinstance(node, SequenceNode):
        return any(_has_merge_key(item, seen) for item in node.value)
    return False


def _json_exact(value: Any) -> bool:
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _json_exact(v) for k, v in value.items())
    if kind is list:
        return all(_json_exact(v) for v in value)
    return kind in (str, int, float, bool) or value is None


def _shallow_positions(node: Any, value: Any, path: PathKey, out: dict[PathKey, Position]) -> bool:
    """Record the positions of the paths of at most :data:`SHALLOW` parts as the round-trip
    parser gives them (a key's own place; a sequence item's place)."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    if len(path) >= SHALLOW:
        return True
    if isinstance(node, MappingNode):
        if not isinstance(value, dict) or len(value) != len(node.value):
            return False
        pairs = zip(value.items(), (pair for pair in node.value))
        for (key, item), (key_node, item_node) in pairs:
            out[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if not _shallow_positions(item_node, item, path + (key,), out):
                return False
    elif isinstance(node, SequenceNode):
        if not isinstance(value, list) or len(value) != len(node.value):
            return False
        for i, (item, item_node) in enumerate(zip(value, node.value)):
            out[path + (i,)] = (item_node.start_mark.line + 1, item_node.start_mark.column + 1)
            if not _shallow_positions(item_node, item, path + (i,), out):
                return False
    return True


def position_of(positions: dict[PathKey, Position], path: PathKey) -> Position:
    """The position of the deepest existing prefix of ``path`` (the field itself when present)."""
    for end in range(len(path), -1, -1):
        pos = positions.get(tuple(path[:end]))
        if pos:
            return pos
    return (0, 0)


def validation_errors(
    exc: Any, file: str, positions: dict[PathKey, Position], prefix: PathKey = ()
) -> list[FileError]:
    """Turn a pydantic ``ValidationError`` into :class:`FileError` records with positions."""
    out = []
    for err in exc.errors():
        loc = prefix + tuple(err["loc"])
        line, col = position_of(positions, loc)
        out.append(FileError(file, line, col, format_path(loc), validation_problem(err, "a mapping")))
    return out


class SuiteFileError(Exception):
    """One or more errors in one suite file."""

    def __init__(self, *errors: FileError) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = list(errors)
