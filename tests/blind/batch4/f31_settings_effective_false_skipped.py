"""profiles.settings -- PROF-SETTINGS-EFFECTIVE.
Bug: the effective value is the first truthy one, so a project's inheritGlobalBindings false is passed over and the default (true) is reported instead."""

from reference.profiles.core import settings
from tests.blind.common import everywhere, swapped


def _effective(global_cfg, project_cfg, key):
    spec = settings.setting_spec(key)
    for origin, cfg in (("project", project_cfg), ("global", global_cfg)):
        value = settings._value(cfg, key)
        if value:
            return value, origin
    return spec.default, "default"


def handle(msg, call):
    with swapped(everywhere(settings.effective_setting, _effective)):
        return call()
