"""YAML reading with positions, shared by scenario, catalogue and expectations files.

:func:`load_with_positions` parses a YAML document with ruamel.yaml and returns plain Python data
(``dict``/``list``/scalars) together with a table from each node's path (a tuple of keys and
indexes) to its 1-based ``(line, column)``, so that validation errors can name the exact place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

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


def load_with_positions(path: Path, display: str | None = None) -> tuple[Any, dict[PathKey, Position]]:
    """Parse ``path`` as one YAML document.

    Returns ``(data, positions)``. Raises :class:`SuiteFileError` with the file, line and column
    for unreadable files, syntax errors and duplicate keys.
    """
    shown = display or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SuiteFileError(FileError(shown, 0, 0, "", f"cannot read file: {exc.strerror or exc}")) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise SuiteFileError(FileError(shown, line, col, "", f"not UTF-8 text (byte 0x{raw[exc.start]:02x})")) from None
    yaml = YAML(typ="rt")
    try:
        node = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = " ".join(p for p in (exc.context, exc.problem) if p) or str(exc)
        raise SuiteFileError(FileError(shown, line, col, "", f"YAML error: {problem}")) from None
    except YAMLError as exc:
        raise SuiteFileError(FileError(shown, 0, 0, "", f"YAML error: {exc}")) from None
    positions: dict[PathKey, Position] = {(): (1, 1)}
    return _plain(node, (), positions), positions


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
        msg = err["msg"]
        if err.get("type") == "extra_forbidden":
            msg = "unknown field"
        elif err.get("type") == "missing":
            msg = "required field is missing"
        out.append(FileError(file, line, col, format_path(loc), msg))
    return out


class SuiteFileError(Exception):
    """One or more errors in one suite file."""

    def __init__(self, *errors: FileError) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = list(errors)
