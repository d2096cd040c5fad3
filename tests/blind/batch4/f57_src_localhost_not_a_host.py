"""pi.package-source -- PI-PKG-SOURCE-GIT.
Bug: a git:HOST/PATH host must hold a dot, so "git:localhost/owner/repo" is refused with package-source-invalid instead of being a git source."""

from reference.pi.core import sources
from reference.text import js_trim
from tests.blind.common import everywhere, swapped

_original = sources.parse_git_source


def _parse(source):
    text = js_trim(source)
    if text.startswith("git:") and js_trim(text[4:]).split("/", 1)[0] == "localhost":
        raise sources._invalid(source, "'localhost' is not a host name")
    return _original(source)


def handle(msg, call):
    with swapped(everywhere(_original, _parse)):
        return call()
