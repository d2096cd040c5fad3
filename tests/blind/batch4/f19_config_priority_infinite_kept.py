"""profiles.config -- PROF-CONFIG-PRIORITY.
Bug: a priority is checked to be a number but not to be finite, so 1e400 (which JSON parsers read as an infinity) is kept instead of dropping the binding with config-binding-priority."""

import math
import types

from reference.profiles.core import config
from tests.blind.common import swapped

_math = types.SimpleNamespace(**{k: getattr(math, k) for k in dir(math) if not k.startswith("_")})
_math.isfinite = lambda x: not math.isnan(x)


def handle(msg, call):
    with swapped([(config, "math", _math)]):
        return call()
