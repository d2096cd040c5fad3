"""pi.load-templates -- PI-TPL-YAML-SCHEMA, PI-TPL-DESCRIPTION.
Bug: frontmatter is read with YAML 1.1 resolution (as PyYAML does), so yes/no/on/off are booleans, 2024-01-01 is a date and 1_000 a number, and such a description counts as absent."""

import re

from reference.pi.core import templates
from tests.blind.common import swapped

YAML_1_1 = [
    ("tag:yaml.org,2002:bool", re.compile(r"(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)\Z")),
    ("tag:yaml.org,2002:int", re.compile(r"[-+]?[0-9][0-9_]*\Z")),
    ("tag:yaml.org,2002:timestamp", re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\Z")),
]


def handle(msg, call):
    with swapped([(templates, "_CORE_SCHEMA", templates._CORE_SCHEMA + YAML_1_1)]):
        return call()
