"""Image models, as Pi 1.6.0's models page describes them (edition ``pi-1.6.0``, "Use image
models"): OpenRouter's image models, listed by type ``image`` with the credential of OpenRouter's
chat models. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any, Mapping

from reference.pi.core.credentials import Credentials, EnvAuth, configured_source
from reference.pi.core.editions import PI_160, check_edition

IMAGE_PROVIDER = "openrouter"
IMAGE_PROVIDER_AUTH = EnvAuth(("OPENROUTER_API_KEY",))

#: The image models the 1.6.0 page names, in its order (PI-160-IMAGE-MODELS).
IMAGE_MODELS_160 = ("google/gemini-2.5-flash-image", "black-forest-labs/flux.2-pro")


def image_catalogue(edition: str | None = None) -> list[dict[str, str]]:
    """The image models of ``edition`` (``None``: ``pi-0.99.4``, which has none) as ``{provider,
    id}``, in the page's order.

    Implements PI-160-IMAGE-MODELS: OpenRouter's image models the page names,
    ``google/gemini-2.5-flash-image`` and ``black-forest-labs/flux.2-pro``, under ``openrouter``.

    Raises ``ValueError`` for an unknown edition.
    """
    if check_edition(edition) != PI_160:
        return []
    return [{"provider": IMAGE_PROVIDER, "id": model} for model in IMAGE_MODELS_160]


def image_source(creds: Credentials, provider_configs: Mapping[str, Mapping[str, Any]] | None = None) -> str | None:
    """The credential source that makes OpenRouter's image models usable, or ``None``.

    Implements PI-160-IMAGE-MODELS-AUTH: the same credential as OpenRouter's chat models
    (``OPENROUTER_API_KEY``, a stored key or a ``/login``, a runtime key, a ``models.json``
    ``apiKey``), by the precedence of :func:`reference.pi.core.credentials.configured_source`.
    """
    configs = provider_configs or {}
    return configured_source(IMAGE_PROVIDER, configs.get(IMAGE_PROVIDER), IMAGE_PROVIDER_AUTH, creds)


def available_image_models(creds: Credentials, provider_configs: Mapping[str, Mapping[str, Any]] | None = None,
                           edition: str | None = None) -> list[dict[str, str]]:
    """The image models listed by type ``image``: those of :func:`image_catalogue` when OpenRouter
    has usable authentication (:func:`image_source`), else none."""
    return image_catalogue(edition) if image_source(creds, provider_configs) is not None else []
