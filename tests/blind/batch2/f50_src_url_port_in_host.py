"""pi.package-source -- PI-PKG-SOURCE-URL, PI-PKG-IDENTITY.
Bug: a URL's host is taken as its authority without the user (host:port), so ssh://git@host:2222/o/r has host "host:2222" and a different identity from https://host/o/r."""

import dataclasses
from urllib.parse import urlsplit

from reference.pi.core import sources
from tests.blind.common import everywhere, swapped

ORIGINAL = sources.parse_git_source


def parse_git_source(source):
    parsed = ORIGINAL(source)
    if parsed is None:
        return None
    text = source.strip()
    url = text[4:].strip() if text.startswith("git:") and "://" in text[4:] and not text.startswith("git://") else text
    if "://" in url:
        try:
            port = urlsplit(url).port
        except ValueError:
            port = None
        if port is not None:
            return dataclasses.replace(parsed, host=f"{parsed.host}:{port}")
    return parsed


def handle(msg, call):
    with swapped(everywhere(ORIGINAL, parse_git_source)):
        return call()
