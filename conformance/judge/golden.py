"""Goldens: one canonical YAML file per case, ``golden/<area>/<case-id>.yaml``, or
``golden/<area>@<edition>/<case-id>.yaml`` where a non-default edition answers otherwise
(PI-DECISION-EDITIONS): writing, reading and the compared form."""

from __future__ import annotations

import io
import json
import math
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruamel.yaml import YAML

from conformance.judge import facets, normalise, optional
from conformance.corpus import yamlcache, yamlio
from conformance.corpus.editions import default_of
from conformance.corpus.places import GOLDEN_DIR
from conformance.output.files import atomic_write_text


HEADER = (
    "# Golden written by the reference implementation; it is specification.\n"
    "# Read it against the spec before committing. Do not edit by hand.\n"
)


def golden_path(golden_dir: Path, area: str, case_id: str, edition: str | None = None) -> Path:
    """Where the golden of ``case_id`` lives when judged by ``edition`` (``None`` or the area's
    default: ``<area>/``): the edition's own golden (``<area>@<edition>/``) when there is one,
    else the area's."""
    own = edition_golden_path(golden_dir, area, case_id, edition)
    return own if own is not None and own.exists() else golden_dir / area / f"{case_id}.yaml"


def edition_golden_path(golden_dir: Path, area: str, case_id: str, edition: str | None) -> Path | None:
    """Where ``edition``'s own golden of ``case_id`` would live (``<area>@<edition>/``), or
    ``None`` when ``edition`` is ``None`` or the area's default (its goldens are the area's)."""
    if edition is None or edition == default_of(area):
        return None
    return golden_dir / f"{area}@{edition}" / f"{case_id}.yaml"


_PLAIN = frozenset((str, int, bool, type(None)))
"""The types :func:`canonical` keeps as they are."""


def canonical(value: Any) -> Any:
    """JSON data in canonical form: integral floats as the ints of their exact value, at any size
    (so ``1.0`` from Python and ``1`` from JavaScript agree, and so do ``1e+21`` and
    ``1000000000000000000000``; ``2**53 + 1`` stays apart from the double ``2**53``; booleans stay
    distinct from numbers), dict keys sorted, tuples as lists.

    Raises ``ValueError`` for values that are not JSON data (NaN, infinities, other types).
    """
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict and all(type(k) is str for k in value):  # plain leaves are kept without a call
        return {k: v if type(v) in _PLAIN else canonical(v) for k, v in sorted(value.items())}
    if kind is list:
        return [v if type(v) in _PLAIN else canonical(v) for v in value]
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not JSON data")
        return int(value) if value.is_integer() else value  # by value: 1e+21 is 10**21 exactly
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise ValueError("object keys must be strings")
        return {k: canonical(value[k]) for k in sorted(value)}
    raise ValueError(f"{type(value).__name__} is not JSON data")


def _yaml() -> YAML:
    from ruamel.yaml import YAML  # imported only to write YAML: a cached text needs none

    yaml = YAML(typ="rt", pure=True)
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.allow_unicode = True
    yaml.representer.add_representer(
        type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "null"))
    yaml.representer.add_representer(float, lambda rep, value: rep.represent_scalar("tag:yaml.org,2002:float", _float_text(value)))
    return yaml


def _float_text(value: float) -> str:
    """A float as every YAML reader reads it: ``.0`` before an exponent with no point (``6e-06`` is text to libyaml)."""
    mantissa, e, exponent = repr(value).partition("e")
    return f"{mantissa}.0e{exponent}" if e and "." not in mantissa else repr(value)


MEMO_BYTES = 8 * 1024
"""The longest text (or data, as JSON) whose YAML this process keeps for a second use (4,096 of
each at most); a longer one is written afresh each time."""

KEPT_BYTES = 64 * 1024
"""The longest data (as JSON) whose YAML the parse cache keeps: no answer of many megabytes (a
report page's) takes the cache's room."""


def _literal_safe(text: str) -> bool:
    """Whether ``text`` may be written as a literal block (``|``): it holds a line break, reads
    back the same, and does not start with a tab. A block whose first line starts with a tab is
    written without an indentation indicator, and libyaml-based readers (PyYAML's CSafeLoader,
    ruamel.yaml.clib) take that tab for indentation and refuse the file; such text is written
    double-quoted instead, as is text of spaces and line breaks only, which the npm ``yaml``
    package reads back without its spaces, and text holding a character of :data:`_ESCAPED`."""
    if "\n" not in text or text.startswith("\t") or text.strip(" \n") == "" or not _ESCAPED.isdisjoint(text):
        return False
    return _literal_memo(text) if len(text) <= MEMO_BYTES else _literal_check(text)


@lru_cache(maxsize=4096)
def _literal_memo(text: str) -> bool:
    return _literal_check(text)


def _literal_check(text: str) -> bool:
    from ruamel.yaml.scalarstring import LiteralScalarString

    yaml = _yaml()
    buf = io.StringIO()
    yaml.dump({"v": LiteralScalarString(text)}, buf)
    try:
        return yamlio.load_data(buf.getvalue(), cache=False)["v"] == text
    except Exception:
        return False


# Plain scalars that a YAML 1.1 reader (PyYAML, older JavaScript libraries) would not read as the
# same string: booleans and nulls of YAML 1.1, and its number forms (sexagesimal, underscores,
# octal, binary). Such strings are written quoted so every reader gets the same data.
_YAML11_WORDS = {"y", "yes", "n", "no", "on", "off", "true", "false", "null", "~", ""}
_YAML11_NUMBER = re.compile(
    r"^[-+]?(0b[01_]+|0[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?"
    r"|[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|\.[0-9_]+([eE][-+]?[0-9]+)?|\.(inf|Inf|INF|nan|NaN|NAN))$")


_ESCAPED = frozenset("\x85\u2028\u2029\ufeff")
"""Written only escaped (``\\N``, ``\\L``, ``\\P``, ``\\uFEFF``, double-quoted): raw, YAML 1.1's line
breaks (NEL, LS, PS) are folded in scalars or end a literal block's line, and a reader may drop a BOM."""


def _yaml11_ambiguous(text: str) -> bool:
    return text.lower() in _YAML11_WORDS or bool(_YAML11_NUMBER.match(text))


def _string_node(text: str, *, key: bool = False) -> Any:
    """A string's scalar: a literal block (values only, where :func:`_literal_safe`), double-quoted
    holding one of :data:`_ESCAPED`, single-quoted when YAML 1.1 reads it otherwise, else plain."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString, SingleQuotedScalarString

    if not key and _literal_safe(text):
        return LiteralScalarString(text)
    if not _ESCAPED.isdisjoint(text):
        return DoubleQuotedScalarString(text)
    if _yaml11_ambiguous(text):
        return SingleQuotedScalarString(text)
    return text


def _to_yaml_node(value: Any) -> Any:
    from ruamel.yaml.comments import CommentedMap

    if isinstance(value, dict):
        node = CommentedMap()
        for k in sorted(value):  # a key is quoted as a value is, but never a literal block
            node[_string_node(k, key=True)] = _to_yaml_node(value[k])
        return node
    if isinstance(value, list):
        return [_to_yaml_node(v) for v in value]
    return _string_node(value) if isinstance(value, str) else value


def dump(data: Any) -> str:
    """Canonical YAML text of JSON data (no header): language-neutral and diffable without
    Python: plain YAML data, keys sorted, multi-line strings as literal blocks where that
    round-trips exactly (otherwise double-quoted), no tags.

    Raises ``ValueError`` for data that is not JSON data, or if the text would not read back as
    the same data (a guard: no golden is ever written that a YAML reader gets differently).
    Small data are written once per process (the docs show an input under each of its clauses):
    at most :data:`MEMO_BYTES` as JSON; the parse cache keeps those of :data:`KEPT_BYTES` at most."""
    encoded = json.dumps(canonical(data), ensure_ascii=False)
    return _dump_memo(encoded) if len(encoded) <= MEMO_BYTES else _dump_canonical(encoded)


@lru_cache(maxsize=4096)
def _dump_memo(encoded: str) -> str:
    return _dump_canonical(encoded)


def _dump_canonical(encoded: str) -> str:
    key = _dump_key(encoded) if len(encoded) <= KEPT_BYTES else None
    stored = yamlcache.get(key, _text_shape) if key else None
    if stored is not None:
        return stored
    data = json.loads(encoded)  # canonical data survives JSON exactly: keys sorted, floats by repr
    buf = io.StringIO()
    _yaml().dump(_to_yaml_node(data), buf)
    text = buf.getvalue()
    if not same(canonical(yamlio.load_data(text, cache=False)), data):
        raise ValueError("the data does not survive a YAML round trip; please report this as a kit bug")
    if key:
        yamlcache.put(key, json.dumps(text, ensure_ascii=False))
    return text


def _dump_key(encoded: str) -> str | None:
    """The parse cache's name for the YAML text of ``encoded`` data: dumping with the pure-Python
    emitter was most of the time of rendering the docs, so each text is kept, under a key that
    changes with the data, with ruamel.yaml's version and with the source of the code that writes
    and checks the text (this module and :mod:`conformance.corpus.yamlio`). ``None``: no cache."""
    identity = _dumper_identity()
    return yamlcache.key_of(f"golden dump {identity}\n{encoded}") if identity else None


def _dumper_identity() -> str | None:
    return yamlcache.sources_digest((Path(__file__).resolve(), Path(yamlio.__file__).resolve()))


def render(case_id: str, op: str, output: Any) -> str:
    """The full text of a golden file: ``case`` (the case id), ``op`` (the operation) and
    ``output`` (the reference's answer, with the tree root replaced by ``<root>``). Goldens are
    written by the reference only."""
    return HEADER + dump({"case": case_id, "op": op, "output": output})


class GoldenError(ValueError):
    """A malformed golden: ``message`` at the 1-based ``line`` and ``column`` of its file (0, 0: a
    problem of the whole file, such as one that cannot be read)."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column

    def at(self, path: Path | str) -> str:
        """The error as every suite file's error is shown: ``path:line:column: message`` (``path:
        message`` without a place)."""
        return f"{path}:{self.line}:{self.column}: {self.message}" if self.line else f"{path}: {self.message}"


def located(path: Path | str, exc: Exception) -> str:
    """``exc`` (raised reading the golden at ``path``) as ``path:line:column: message`` when it
    has a place (:class:`GoldenError`), else ``path: message``."""
    return exc.at(path) if isinstance(exc, GoldenError) else f"{path}: {' '.join(str(exc).split())}"


GOLDEN_KEYS = ("case", "op", "output")
"""The keys of a golden file, in the order it is written."""


def parse(text: str) -> dict:
    """The data of a golden file's text (through the parse cache). Raises :class:`GoldenError`
    (with the line and column of the problem) for a malformed golden."""
    try:
        data = yamlio.load_data(text)
    except Exception as exc:
        line, column, problem = yamlio.yaml_problem(exc)
        raise GoldenError(f"golden is not valid YAML: {problem}", line or 1, column or 1) from None
    if not isinstance(data, dict):
        raise GoldenError(f"golden must be a mapping with exactly {', '.join(GOLDEN_KEYS)}")
    extra = [k for k in data if k not in GOLDEN_KEYS]
    missing = [k for k in GOLDEN_KEYS if k not in data]
    if extra or missing:
        line = _key_line(text, extra[0]) if extra else 1
        what = "; ".join(part for part in (f"unknown key {extra[0]!r}" if extra else "",
                                           f"missing {', '.join(missing)}" if missing else "") if part)
        raise GoldenError(f"golden must be a mapping with exactly {', '.join(GOLDEN_KEYS)} ({what})", line)
    try:
        canonical(data)
    except ValueError:
        raise _not_json(text, data) from None
    return data


def _not_json(text: str, data: Any) -> GoldenError:
    """The error of a golden whose ``data`` (read from ``text``) holds a value that is not JSON
    data (a date, NaN, bytes, a key that is not a string), at that value's key or item."""
    def first(value: Any, path: tuple) -> tuple[tuple, str] | None:
        if isinstance(value, dict):
            for key, item in value.items():
                found = (path + (key,), f"has the key {key!r}, not a string") if not isinstance(key, str) \
                    else first(item, path + (key,))
                if found:
                    return found
            return None
        if isinstance(value, list):
            return next((found for i, item in enumerate(value) if (found := first(item, path + (i,)))), None)
        if isinstance(value, float) and not math.isfinite(value):
            return path, f"is {value!r}"
        return None if value is None or isinstance(value, (str, int, float)) else (path, f"is a {type(value).__name__}")

    path, what = first(data, ()) or ((), "is not JSON data")
    try:
        line, column = yamlio.position_of(yamlio.load_text_with_positions(text, "golden")[1], path)
    except yamlio.SuiteFileError:
        line, column = 1, 1
    where = yamlio.format_path(path[:-1]) if what.startswith("has the key") else yamlio.format_path(path)
    return GoldenError(f"golden is not JSON data: {where} {what}", line or 1, column or 1)


def _key_line(text: str, key: str) -> int:
    """The 1-based line of the top-level ``key`` in a golden's ``text`` (1 when not found)."""
    return next((i for i, row in enumerate(text.splitlines(), 1) if row.startswith(f"{key}:")), 1)


def _text(path: Path) -> str | None:
    """The text of the golden file at ``path``, or ``None`` when there is none. Raises
    :class:`GoldenError` for a file that cannot be read (without a place) or is not UTF-8 text
    (at the first byte that is not)."""
    try:
        return yamlio.read_text(path, str(path), follow=False)  # a golden is the folder's own file
    except yamlio.SuiteFileError as exc:
        if not os.path.lexists(path):
            return None
        first = exc.errors[0]
        raise GoldenError(f"golden is {first.message}" if first.line else first.message, first.line, first.column) from None


def read(path: Path) -> dict | None:
    """The golden at ``path``, or ``None`` when there is none. Raises :class:`GoldenError` (a
    ``ValueError``) if malformed or unreadable."""
    text = _text(path)
    return None if text is None else parse(text)


def read_case(path: Path, case_id: str, op: str) -> dict | None:
    """:func:`read` of the golden of case ``case_id`` (operation ``op``), ``None`` when there is
    none. Raises :class:`GoldenError` when it is malformed, unreadable, or another case's
    (:func:`header_problem`, placed at its ``case`` or ``op`` key)."""
    stored = read(path)
    problem = header_problem(path, stored, case_id, op) if stored is not None else None
    if problem is not None:
        raise problem
    return stored


class Stored:
    """A golden as the runner compares it: its header (``case``, ``op``) and its output as
    :func:`encoded` text of the canonical output, so that an answer is compared with it without
    decoding, canonicalising or encoding the golden's data again."""

    __slots__ = ("case", "op", "text")

    def __init__(self, case: Any, op: Any, text: str) -> None:
        self.case, self.op, self.text = case, op, text

    def get(self, key: str) -> Any:
        """The header field ``case`` or ``op`` (as :func:`header_mismatch` reads it)."""
        return {"case": self.case, "op": self.op}.get(key)

    @property
    def output(self) -> Any:
        """The canonical output: a fresh copy on each call."""
        return json.loads(self.text)


_STORED = "golden, compared form\n"
_FOLDER = "goldens of a folder, compared form, errors placed\n"


def read_stored(path: Path) -> Stored | None:
    """The golden at ``path`` in compared form (:class:`Stored`), through the parse cache; ``None``
    when there is none. Raises ``ValueError`` if malformed or not JSON data."""
    text = _text(path)
    return None if text is None else _stored(text)


def _stored(text: str) -> Stored:
    key = yamlcache.key_of(f"{_STORED}{_dumper_identity()}\n{text}")  # made by this comparing code only
    entry = yamlcache.get(key, _stored_shape)
    if entry is not None:
        return entry
    data = parse(text)
    stored = Stored(data["case"], data["op"], encoded(canonical(data["output"])))
    yamlcache.put(key, json.dumps({"case": stored.case, "op": stored.op, "text": stored.text}, ensure_ascii=False))
    return stored


def read_folder(folder: Path) -> dict[str, Stored | GoldenError]:
    """Every golden of ``folder`` in compared form, by file name: its :class:`Stored`, or for a
    malformed one the :class:`GoldenError` :func:`read_stored` raises (a ``ValueError`` of another
    kind, such as data that is not JSON, is kept as a :class:`GoldenError` at line 1). Decoded from one parse-cache entry
    named by every file's name and text (a run opens one entry instead of one per golden); an
    absent or unreadable folder holds none. The entry's name includes the reading code
    (:func:`_dumper_identity`), which decides the errors it keeps."""
    key = yamlcache.hasher(f"{_FOLDER}{_dumper_identity()}\n")
    contents = []
    try:
        for name in sorted(n for n in os.listdir(folder) if n.endswith(".yaml")):
            if os.path.islink(os.path.join(folder, name)):
                continue  # refused by read_stored, with its reason, when its case reads it
            data = yamlio.read_bytes(os.path.join(folder, name), follow=False)
            key.update(f"{len(name)}:{name}{len(data)}:".encode("utf-8", "surrogatepass") + data)
            contents.append((name, data))
    except (OSError, ValueError):
        return {}
    entry = yamlcache.get(key.hexdigest(), _folder_shape)
    if entry is not None and entry.keys() == {name for name, _ in contents}:
        return entry
    try:
        texts = [(name, data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")) for name, data in contents]
    except ValueError:
        return {}
    found: dict[str, Stored | GoldenError] = {}
    for name, text in texts:
        try:
            found[name] = _stored(text)
        except GoldenError as exc:
            found[name] = exc
        except ValueError as exc:
            found[name] = GoldenError(str(exc))
    yamlcache.put(key.hexdigest(), json.dumps({name: [f.case, f.op, f.text] if isinstance(f, Stored)
                                               else ["error", f.message, [f.line, f.column]]
                                               for name, f in found.items()}, ensure_ascii=False))
    return found


def _text_shape(entry: Any) -> str | None:
    """A dumped text kept in the parse cache, or ``None`` for an entry of another shape."""
    return entry if isinstance(entry, str) else None


_STORED_SHAPE = {"case": object, "op": object, "text": str}


def _stored_shape(entry: Any) -> Stored | None:
    """The :class:`Stored` a parse-cache entry holds, or ``None`` for an entry of another shape."""
    return Stored(entry["case"], entry["op"], entry["text"]) if yamlcache.matches(entry, _STORED_SHAPE) else None


def _folder_shape(entry: Any) -> dict[str, Stored | GoldenError] | None:
    """The goldens of a folder a parse-cache entry holds (by name ``[case, op, text]``, or
    ``["error", message, [line, column]]``), or ``None`` for an entry of another shape."""
    if not yamlcache.matches(entry, {"*": [object]}):
        return None
    found: dict[str, Stored | GoldenError] = {}
    for name, item in entry.items():
        if len(item) == 3 and isinstance(item[2], str):
            found[name] = Stored(*item)
        elif len(item) == 3 and item[0] == "error" and isinstance(item[1], str) and \
                yamlcache.matches(item[2], [int]) and len(item[2]) == 2:
            found[name] = GoldenError(item[1], *item[2])
        else:
            return None
    return found


def write(path: Path, case_id: str, op: str, output: Any) -> bool:
    """Write the golden atomically (temporary file and rename). Returns whether it changed."""
    text = render(case_id, op, output)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    atomic_write_text(path, text)
    return True


def comparable(output: Any, normalisers: list[str], case: Any = None, gives: Any = None) -> Any:
    """``output`` canonicalised and normalised (with what ``case`` knows), ready for comparison.

    With a ``case`` (anything with ``op``), the properties that are ``null`` where the
    operation's output schema allows ``null`` are then taken out
    (:func:`conformance.judge.optional.drop_nulls`): absent and null mean the same; and so are the
    facets not in ``gives`` (:func:`conformance.judge.facets.reduce`; ``None``: every facet kept)."""
    data = canonical(output)
    if normalisers:
        data = canonical(normalise.apply(normalisers, data, case))
    op = getattr(case, "op", None)
    if not isinstance(op, str):
        return data
    return facets.reduce(op, optional.drop_nulls(op, data), gives)


def diff(expected: Any, actual: Any) -> str:
    """A unified diff of the canonical YAML of two outputs ('' when equal)."""
    a = dump(expected).splitlines(keepends=True)
    b = dump(actual).splitlines(keepends=True)
    import difflib  # imported only to show a difference

    return "".join(difflib.unified_diff(a, b, "golden", "answer"))


def encoded(data: Any) -> str:
    """JSON text of canonical data, keys sorted: two data are :func:`same` when theirs are equal."""
    return json.dumps(data, sort_keys=True)


def same(expected: Any, actual: Any) -> bool:
    """Type-exact equality of canonical data (``true`` is not ``1``)."""
    return encoded(expected) == encoded(actual)


def header_problem(path: Path, stored: dict | Stored, case_id: str, op: str) -> GoldenError | None:
    """:func:`header_mismatch` of the golden ``stored`` read from ``path``, as a
    :class:`GoldenError` at the line of its ``case`` key (of its ``op`` key when only the operation
    differs), or ``None`` when the golden is that case's."""
    mismatch = header_mismatch(stored, case_id, op)
    if mismatch is None:
        return None
    key = "op" if stored.get("case") == case_id else "case"
    try:
        line = _key_line(path.read_text(encoding="utf-8"), key)
    except (OSError, ValueError):
        line = 1
    return GoldenError(mismatch, line, 1)


def header_mismatch(stored: dict | Stored, case_id: str, op: str) -> str | None:
    """Why a golden read for ``case_id`` (operation ``op``) is not that case's golden, or ``None``.

    A golden's ``case`` and ``op`` header must name the case it is compared with: a golden copied
    from another case is never a pass, under the CLI or under pytest.
    """
    if stored.get("case") == case_id and stored.get("op") == op:
        return None
    return (f"the golden is for case {stored.get('case')!r} ({stored.get('op')!r}), "
            f"not {case_id!r} ({op!r})")


ORPHAN_HINT = ("orphaned golden: no case of the suite expects it; delete it (when a case is retired, "
               "its golden is deleted and its id listed in conformance/scenarios/ids.yaml so that it is "
               "never reused)")
"""The message of an orphaned golden, the same under the CLI and under pytest."""


def orphans(golden_dir: Path, case_ids: set[str]) -> list[Path]:
    """Golden files whose case id is not a case of the whole suite.

    Always judged against every case present (never a selection), so running a subset of cases
    (``-k``, ``--area``, xdist) cannot raise a false alarm.
    """
    return sorted(golden_dir / folder / name for folder, name in golden_names(golden_dir)
                  if name[:-len(".yaml")] not in case_ids)


MISNAMED = ".yml"
"""The suffix of a golden written by hand under the wrong name: never read, always reported."""


def misnamed(golden_dir: Path, case: tuple[str, str, str | None] | None = None) -> list[yamlio.FileError]:
    """A suite error for every ``<folder>/<name>.yml`` under ``golden_dir`` (or, given ``case`` as
    ``(area, case_id, edition)``, for that case's own ``.yml`` in its area's folder and its edition's):
    a file meant as a golden that the kit would never read, since goldens end in ``.yaml``. Reported
    under the CLI and pytest alike, whatever the selection."""
    if case is None:
        paths = sorted(golden_dir / folder / name for folder, name in golden_names(golden_dir, MISNAMED))
    else:
        area, case_id, edition = case
        own = edition_golden_path(golden_dir, area, case_id, edition)
        paths = [p.with_suffix(MISNAMED) for p in (golden_dir / area / f"{case_id}.yaml", own)
                 if p is not None and p.with_suffix(MISNAMED).is_file()]
    return [yamlio.FileError(str(path), 0, 0, "", f"goldens end in .yaml (<area>/<case-id>.yaml), so this "
                             f"file is not read: rename it {path.stem}.yaml, or delete it when "
                             f"{path.stem}.yaml is there") for path in paths]


def misnamed_beside(path: Path) -> str:
    """For a golden ``path`` that is missing: a note naming the ``.yml`` file of the same name
    beside it, which is not read (``""`` when there is none)."""
    twin = path.with_suffix(MISNAMED)
    return f" ({twin} is there, but goldens end in .yaml)" if twin.is_file() else ""


def golden_folders() -> set[str]:
    """The folders a golden may live in: each area's, and ``<area>@<edition>`` for its editions."""
    from conformance.corpus.areas import SCENARIO_AREAS
    from conformance.corpus.editions import of_area

    return set(SCENARIO_AREAS) | {f"{area}@{name}" for area in SCENARIO_AREAS for name in of_area(area)}


def golden_names(golden_dir: Path, suffix: str = ".yaml") -> list[tuple[str, str]]:
    """``(folder, file name)`` of every ``<folder>/<name><suffix>`` under ``golden_dir``, the
    folder an area's or an edition's (:func:`conformance.judge.strays.foreign` reports the
    others), listed with ``os.scandir``: a full run and a run of one case alike list every
    golden, and a path object made for each cost more than the rest of the check."""
    found = []
    allowed = golden_folders()
    try:
        folders = [e.name for e in os.scandir(golden_dir) if e.name in allowed and e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    for folder in folders:
        try:
            found += [(folder, e.name) for e in os.scandir(golden_dir / folder) if e.name.endswith(suffix)]
        except OSError:
            continue
    return found
