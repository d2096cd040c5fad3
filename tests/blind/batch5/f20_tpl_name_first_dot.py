"""pi.load-templates -- PI-TPL-NAME.
Bug: the command name is the file name up to its first "." (name.split(".")[0]), so "v1.2-notes.md" is the command "v1" instead of "v1.2-notes"."""

from reference.pi.core import templates
from tests.blind.common import everywhere, swapped


def _name(file_name):
    return file_name.split(".")[0]


def handle(msg, call):
    with swapped(everywhere(templates.command_name, _name)):
        return call()
