"""pi.package-source -- PI-PKG-SOURCE-REF-FIRST-AT, PI-PKG-SOURCE-REPO-URL.
Bug: the ref is split off at the last "@" (lastIndexOf), so a ref that itself holds "@" is cut and the rest joins the repository path."""

from reference.pi.core import sources
from tests.blind.common import everywhere, swapped


def _split(path_with_ref):
    at = path_with_ref.rfind("@")
    if at < 0:
        return path_with_ref, None
    path, ref = path_with_ref[:at], path_with_ref[at + 1:]
    if not path or not ref:
        return path_with_ref, None
    return path, ref


def handle(msg, call):
    with swapped(everywhere(sources._split_ref, _split)):
        return call()
