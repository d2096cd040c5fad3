"""The ``models.json`` file: the check against its schema (the models are
:mod:`reference.pi.core.models_schema`), comments and trailing commas, and the issues it reports
(Pi's docs "Choose a Model"; PI-DECISION-MODELS). Pure: it reads text or data the caller gives.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError


@dataclass(frozen=True)
class ConfigIssue:
    """A problem with ``models.json`` or with one provider in it.

    Attributes:
        code: ``models-json-parse``, ``models-json-schema`` or ``provider-composition``.
        path: dotted path of the bad field (``providers.ollama.models.0.id``), ``root`` for the
            whole document, or ``None`` for a composition issue.
        provider: the provider concerned (composition issues only).
        message: human-readable text naming the path or provider.
    """

    code: str
    message: str
    path: str | None = None
    provider: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "path": self.path, "provider": self.provider, "message": self.message}


def _format_loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "root"


def validate_models_json(data: Any) -> tuple[dict[str, Any] | None, list[ConfigIssue]]:
    """Check a parsed ``models.json`` document against the schema.

    Implements PI-MODELS-SCHEMA (the schema of PI-MODELS-SCHEMA-FIELDS): any schema error
    invalidates the whole file; each issue names the
    dotted path of the bad field. Unknown keys are ignored. Implements PI-MODELS-SCHEMA-EVERY-FIELD:
    every bad field is an issue of its own (two missing fields of one object are two). Implements
    PI-160-MODELS-SCHEMA-URL: a top-level ``$schema`` string (the schema's address, as the 1.6.0
    page's example writes it) is part of the schema, never an issue.

    Args:
        data: the parsed JSON document.
    Returns:
        ``(providers, [])`` where ``providers`` maps provider id to its raw configuration (a deep
        copy of the input, unknown keys kept), or ``(None, issues)`` with the issues sorted by path.
    """
    if not isinstance(data, dict):
        return None, [ConfigIssue("models-json-schema", "root: expected an object", path="root")]
    from reference.pi.core.models_schema import ModelsFile  # built when a document is first checked

    try:
        ModelsFile.model_validate(data)
    except ValidationError as exc:
        seen: dict[str, ConfigIssue] = {}
        for err in exc.errors():
            path = _format_loc(tuple(err["loc"]))
            if path not in seen:
                seen[path] = ConfigIssue("models-json-schema", f"{path}: {err['msg']}", path=path)
        return None, [seen[p] for p in sorted(seen)]
    return copy.deepcopy(data["providers"]), []


_STRING_OR_COMMENT = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*')
_STRING_OR_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])')


def strip_json_comments(text: str) -> str:
    """``text`` without ``//`` line comments and without commas directly before ``}`` or ``]``;
    string literals are left untouched.

    Implements PI-MODELS-JSON-COMMENTS.
    """
    text = _STRING_OR_COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)
    return _STRING_OR_TRAILING_COMMA.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(0), text)


def parse_models_json_text(text: str) -> tuple[dict[str, Any] | None, list[ConfigIssue]]:
    """Parse ``models.json`` text (a leading BOM is ignored, comments and trailing commas are
    allowed, see :func:`strip_json_comments`) and validate it.

    Text that is not JSON is reported like a schema error (:func:`validate_models_json`), with code
    ``models-json-parse`` and path ``root``.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(strip_json_comments(text))
    except json.JSONDecodeError as exc:
        return None, [ConfigIssue("models-json-parse", f"root: not valid JSON: {exc.msg} at line {exc.lineno}", path="root")]
    return validate_models_json(data)
