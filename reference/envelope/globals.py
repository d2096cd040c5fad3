"""Process-global registries shared between extensions (ENV-DECISION-REGISTRIES): ``globalThis`` as
an explicit :class:`GlobalScope`, and the versioned :class:`SharedRegistry` installed in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

CONTRIBUTIONS_KEY = "pi-developer-messages/developer-messages/v1"
"""Key of the contribution registry (``Symbol.for`` name in Pi)."""

ADAPTERS_KEY = "pi-developer-messages/provider-payload-adapters/v1"
"""Key of the provider payload adapter registry."""

SERVICE_KEY = "pi-developer-messages/envelope-service/v1"
"""Key under which the running envelope service is published."""

REGISTRY_VERSION = 1
"""The only registry version this reference understands."""

T = TypeVar("T")


class SharedRegistry(dict, Generic[T]):
    """A registry map, keyed by id (contribution id or provider id), with its ``protocol`` string
    and ``version`` number.

    Attributes:
        protocol: the key the registry is published under.
        version: the registry layout version (``1``).
    """

    def __init__(self, protocol: str, version: int = REGISTRY_VERSION) -> None:
        super().__init__()
        self.protocol = protocol
        self.version = version


@dataclass
class GlobalScope:
    """A stand-in for ``globalThis``: objects by key. In Pi the registries live on ``globalThis``
    under ``Symbol.for(KEY)``; here callers pass a scope in explicitly (one per simulated process),
    or get :data:`PROCESS_SCOPE`.

    Attributes:
        objects: what is published, by key.
        warnings: what :func:`install_registry` reported while installing registries, each a
            diagnostic ``{"level": "warn", "code": "registry-incompatible", "message": str}``.
    """

    objects: dict[str, Any] = field(default_factory=dict)
    warnings: list[dict[str, str]] = field(default_factory=list)


PROCESS_SCOPE = GlobalScope()
"""The scope of this Python process, used when a caller passes none."""


def is_compatible(value: Any, key: str) -> bool:
    """Whether ``value`` is a registry this reference can adopt under ``key``: a map whose
    ``protocol`` is ``key`` and whose ``version`` is ``1``."""
    return (
        isinstance(value, dict)
        and getattr(value, "protocol", None) == key
        and getattr(value, "version", None) == REGISTRY_VERSION
    )


def install_registry(scope: GlobalScope, key: str) -> SharedRegistry:
    """The registry published under ``key``: the existing one when compatible, else a new one.

    Clauses:
        ENV-REGISTRY-GLOBAL: each registry is a map published under its key with ``protocol`` set
            to that key and ``version: 1``; a compatible registry that already exists (created by
            another extension that loaded first, see :func:`is_compatible`) is adopted as is, with
            its entries.
        ENV-REGISTRY-INCOMPATIBLE: an object under ``key`` that is not a compatible registry is
            replaced by a new, empty registry, and a warning (code ``registry-incompatible``, its
            message naming the key) is recorded in ``scope.warnings``; its entries are not adopted.

    Args:
        scope: the ``globalThis`` stand-in.
        key: :data:`CONTRIBUTIONS_KEY` or :data:`ADAPTERS_KEY`.

    Returns:
        The registry now published under ``key``.
    """
    existing = scope.objects.get(key)
    if is_compatible(existing, key):
        return existing
    if existing is not None:
        scope.warnings.append({
            "level": "warn", "code": "registry-incompatible",
            "message": f"replaced an incompatible registry under {key!r} (expected protocol {key!r}, "
                       f"version {REGISTRY_VERSION})",
        })
    registry: SharedRegistry = SharedRegistry(key)
    scope.objects[key] = registry
    return registry
