"""pi.models-load -- PI-MODELS-SCHEMA-EVERY-FIELD.
Bug: schema issues are sorted with indices compared as numbers (a natural sort), so providers.a.models.2.id comes before providers.a.models.10.id instead of after it, as text by code point has it."""

import re

from reference.pi.core import models_file
from tests.blind.common import everywhere, swapped

_original = models_file.validate_models_json


def _natural(issue):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"\.", issue.path)]


def _validate(data):
    providers, issues = _original(data)
    return providers, sorted(issues, key=_natural)


def handle(msg, call):
    with swapped(everywhere(_original, _validate)):
        return call()
