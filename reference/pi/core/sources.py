"""Package sources: parsing ``npm:``, git and local sources (Pi's docs "Pi Packages"; PI-DECISION-PACKAGES).

Pure: paths are POSIX strings, resolved against directories the caller gives; nothing is read.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from reference.errors import SpecError
from reference.pi.core.identity import package_identity
from reference.text import js_trim


@dataclass(frozen=True)
class PackageSource:
    """A parsed package source.

    Attributes:
        type: ``"npm"``, ``"git"`` or ``"local"``.
        source: the source as written.
        name, version: npm package name and version or range/tag (``None`` when absent).
        host, path, ref, repo: git host, repository path (no ``.git``), ref and repository URL.
        localPath: absolute resolved path of a local source.
        pinned: whether updates keep it where it is (an exact npm version, a git ref).
    """

    type: str
    source: str
    name: str | None = None
    version: str | None = None
    host: str | None = None
    path: str | None = None
    ref: str | None = None
    repo: str | None = None
    localPath: str | None = None
    pinned: bool = False

    @property
    def identity(self) -> str:
        """See :func:`package_identity`."""
        return package_identity(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "identity": self.identity, "pinned": self.pinned}
        if self.type == "npm":
            out.update(name=self.name, version=self.version)
        elif self.type == "git":
            out.update(host=self.host, path=self.path, ref=self.ref, repo=self.repo)
        else:
            out.update(localPath=self.localPath)
        return out


_EXACT_VERSION = re.compile(
    r"v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(-(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*)?"
    r"(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?"
)
_NPM_SPEC = re.compile(r"(@?[^@]+(?:/[^@]+)?)(?:@(.+))?")
_NPM_NAME = re.compile(r"(@[^/@\s]+/)?[^/@\s]+")
_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_GIT_URL_SCHEME = re.compile(r"^(https?|ssh|git)://")
_NON_LOCAL_PREFIXES = ("npm:", "git:")


def is_exact_version(version: str | None) -> bool:
    """Whether ``version`` is one exact semantic version (``1.2.3``, ``v1.2.3``, ``1.0.0-rc.1``), as
    opposed to a range (``^1.2.0``) or a tag (``latest``)."""
    return version is not None and _EXACT_VERSION.fullmatch(js_trim(version)) is not None


def _invalid(source: str, why: str) -> SpecError:
    return SpecError("package-source-invalid", f"package source {source!r}: {why}", path="source")


def _scheme_problem(url: str, what: str) -> str:
    """Why ``url``'s scheme is refused: a git scheme not written in lower case is named with the
    lower-case form (PI-PKG-SOURCE-CASE)."""
    scheme = url[: url.index("://")]
    if _GIT_URL_SCHEME.match(scheme.lower() + "://"):
        return f"a URL scheme is written in lower case: {scheme.lower()}{url[len(scheme):]}"
    return f"only https, http, ssh and git URLs are {what}"


def parse_npm_source(source: str) -> PackageSource:
    """Parse ``npm:NAME[@VERSION]``.

    Implements PI-PKG-SOURCE-NPM: scoped names (``@scope/name``) are kept whole; an exact version is
    pinned, a range or a tag (or no version) is not.

    Raises:
        SpecError ``package-source-invalid`` when the name is missing or malformed.
    """
    spec = js_trim(source[len("npm:") :])
    match = _NPM_SPEC.fullmatch(spec)
    if not match or not _NPM_NAME.fullmatch(match.group(1)):
        raise _invalid(source, "expected npm:NAME or npm:NAME@VERSION")
    name, version = match.group(1), match.group(2)
    return PackageSource("npm", source, name=name, version=version, pinned=is_exact_version(version))


def _split_ref(path_with_ref: str) -> tuple[str, str | None]:
    """``(path, ref)``: the ref starts at the first ``@`` of the repository path
    (PI-PKG-SOURCE-REF-FIRST-AT); ``None`` without one, or when either side is empty."""
    at = path_with_ref.find("@")
    if at < 0:
        return path_with_ref, None
    path, ref = path_with_ref[:at], path_with_ref[at + 1 :]
    if not path or not ref:
        return path_with_ref, None
    return path, ref


def parse_git_source(source: str) -> PackageSource | None:
    """Parse a git source, or give ``None`` when ``source`` is not written as one.

    Implements PI-PKG-SOURCE-GIT and PI-PKG-SOURCE-URL. Written as git: ``git:HOST/PATH[@REF]``
    (``HOST`` has a dot or is ``localhost``), ``git:git@HOST:PATH[@REF]``, ``git:`` followed by a URL,
    or a bare ``https://``, ``http://``, ``ssh://`` or ``git://`` URL. ``PATH`` loses leading and
    trailing slashes (PI-PKG-SOURCE-TRAILING-SLASH) and then a trailing ``.git``, and needs at least
    two segments; a ref is pinned. ``repo`` is the source as written without ``git:`` and the ref,
    with ``https://`` before the ``HOST/PATH`` form (PI-PKG-SOURCE-REPO-URL).

    Implements PI-PKG-SOURCE-INVALID: a source written as git that does not parse (a ``git:``
    prefix or a git URL scheme with no usable host and repository path) is refused, never read as
    a local path.

    Implements PI-PKG-SOURCE-GIT-HASH: a repository path holding ``#`` (a ref written the npm
    way) is refused, in every form, a URL's included (where ``#`` would start a fragment).

    Implements PI-PKG-SOURCE-HOST-CASE: ``host`` (and so the identity) is lower-cased in every
    form; the path, the ref and ``repo`` keep the source's case.

    Implements PI-PKG-SOURCE-CASE: the ``git:`` prefix and the URL schemes are matched as written,
    in lower case; ``HTTPS://...`` is not a git source (:func:`parse_source` refuses it).

    Raises:
        SpecError ``package-source-invalid`` for such a source.
    """
    text = js_trim(source)
    has_prefix = text.startswith("git:") and not _GIT_URL_SCHEME.match(text)
    url = js_trim(text[4:]) if has_prefix else text
    if not has_prefix and not _GIT_URL_SCHEME.match(url):
        return None
    scp = re.fullmatch(r"git@([^:/]+):(.+)", url)
    if scp:
        host, path_ref = scp.group(1), scp.group(2)
        path, ref = _split_ref(path_ref)
        repo = f"git@{host}:{path}"
    elif "://" in url:
        if not _GIT_URL_SCHEME.match(url):
            raise _invalid(source, _scheme_problem(url, "git sources"))
        parts = urlsplit(url)
        host = parts.hostname or ""
        # urlsplit takes `#...` for a fragment; it is part of the path as written (PI-PKG-SOURCE-GIT-HASH)
        path, ref = _split_ref(parts.path.lstrip("/") + ("#" + parts.fragment if "#" in url else ""))
        repo = url if ref is None else url[: url.rfind("@" + ref)]
    else:
        slash = url.find("/")
        if slash < 0:
            raise _invalid(source, "expected git:HOST/OWNER/REPO")
        host = url[:slash]
        if "." not in host and host != "localhost":
            raise _invalid(source, f"{host!r} is not a host name")
        path, ref = _split_ref(url[slash + 1 :])
        repo = f"https://{host}/{path}"
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")]
    segments = path.split("/")
    if not host or len(segments) < 2 or any(s in ("", "..") for s in segments) or "\\" in path:
        raise _invalid(source, "expected a repository path with an owner and a name")
    if "#" in path:
        raise _invalid(source, "a git ref is written @REF, not #REF")
    return PackageSource("git", source, host=host.lower(), path=path, ref=ref, repo=repo, pinned=ref is not None)


def resolve_local_path(path: str, base_dir: str, home: str | None = None) -> str:
    """``path`` made absolute: ``~`` and ``~/...`` against ``home`` (when given, PI-PKG-SOURCE-HOME),
    a relative path against ``base_dir``; the result is normalised (``.`` and ``..`` folded)."""
    p = js_trim(path)
    if home is not None and (p == "~" or p.startswith("~/")):
        p = posixpath.join(home, p[2:]) if p != "~" else home
    if not posixpath.isabs(p):
        p = posixpath.join(base_dir, p)
    return posixpath.normpath(p)


def parse_source(source: str, base_dir: str, home: str | None = None) -> PackageSource:
    """Parse a package source as declared in a settings file whose directory is ``base_dir``.

    White space around ``source`` (JavaScript's, :func:`reference.text.js_trim`) is ignored
    (PI-PKG-SOURCE-TRIM).

    Implements PI-PKG-SOURCE-LOCAL: anything that is neither ``npm:`` nor written as git (see
    :func:`parse_git_source`) is a local path, resolved from the directory of the settings file that
    holds it; ``github.com/owner/repo`` or ``git@host:owner/repo`` without ``git:`` are local paths.
    ``NPM:pkg`` and ``Git:host/o/r`` are local paths too, and a URL whose scheme is not written in
    lower case is refused (PI-PKG-SOURCE-CASE).

    Raises:
        SpecError ``package-source-invalid`` for an empty source or a malformed npm/git source.
    """
    if not isinstance(source, str) or not js_trim(source):
        raise SpecError("package-source-invalid", "package source must be a non-empty string", path="source")
    text = js_trim(source)
    if text.startswith("npm:"):
        return parse_npm_source(text)
    git = parse_git_source(text)
    if git is not None:
        return git
    if _URL_SCHEME.match(text):
        raise _invalid(source, _scheme_problem(text, "package sources"))
    return PackageSource("local", source, localPath=resolve_local_path(text, base_dir, home))
