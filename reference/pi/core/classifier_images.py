"""Images passed to classifier models, as Pi 1.6.0's models page describes them (edition
``pi-1.6.0``, "Use classifier models").

A request may carry ``images``: image content blocks ``{type: "image", data, mimeType}``. Which
classifiers take them, in which formats and how many, depends on the model. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from reference.errors import SpecError
from reference.pi.core.classifiers import ClassifierEntry
from reference.pi.core.editions import PI_160, check_edition

#: The classifiers of the 1.6.0 table that take images (PI-160-CLASSIFIER-IMAGE-INPUT).
IMAGE_CLASSIFIERS = frozenset({
    ("openai", "gpt-6-luna"),
    ("typesafe", "jev-latest"),
    ("cloudflare-workers-ai", "typesafe/jev"),
    ("cloudflare-workers-ai", "typesafe/jev-1.14.0"),
    ("cloudflare-workers-ai", "@cf/cloudflare/clef"),
    ("cloudflare-workers-ai", "@cf/cloudflare/clef-flash"),
    ("cloudflare-workers-ai", "@cf/cloudflare/clef-omni"),
})

#: Providers whose classifiers take images as their live catalogue lists (PI-160-CLASSIFIER-IMAGE-UNSTATED).
CATALOGUE_LISTED = ("openrouter",)

JEV_TYPES = ("image/png", "image/jpeg")
CLEF_TYPES = ("image/png", "image/jpeg", "image/webp")
CLEF_MAX_IMAGES = 4


def takes_images(entry: ClassifierEntry, edition: str | None = None) -> bool | None:
    """Whether the classifier ``entry`` judges images in ``edition`` (``None``: ``pi-0.99.4``):
    ``None`` when the page leaves it to the live catalogue.

    Implements PI-160-CLASSIFIER-IMAGE-INPUT: GPT-6 Luna, Jev from ``typesafe`` and
    ``cloudflare-workers-ai`` and Clef from ``cloudflare-workers-ai`` take images; the other
    classifiers of the table (Jev from ``vercel-ai-gateway`` and ``opencode``,
    Microsoft-Decision-1) take text only. Edition ``pi-0.99.4`` has no image input at all.
    Implements PI-160-CLASSIFIER-IMAGE-UNSTATED: ``openrouter``'s classifiers are ``None``.

    Raises ``ValueError`` for an unknown edition.
    """
    if check_edition(edition) != PI_160:
        return False
    if entry.provider in CATALOGUE_LISTED:
        return None
    return (entry.provider, entry.id) in IMAGE_CLASSIFIERS


def image_formats(entry: ClassifierEntry) -> tuple[tuple[str, ...] | None, int | None]:
    """The media types a classifier takes and how many images per request: Jev PNG and JPEG, Clef
    PNG, JPEG and WebP, at most four; ``(None, None)`` (no limit) for the others.

    Implements PI-160-CLASSIFIER-IMAGE-FORMATS (by model family, whatever the provider) and
    PI-160-CLASSIFIER-IMAGE-UNSTATED (no limit where the page names none: GPT-6 Luna).
    """
    name = entry.id.rsplit("/", 1)[-1]
    if name.startswith("clef"):
        return CLEF_TYPES, CLEF_MAX_IMAGES
    if "jev" in name:
        return JEV_TYPES, None
    return None, None


def check_images(entry: ClassifierEntry, images: Any, edition: str | None = None) -> int:
    """Check the ``images`` of a request to ``entry`` (``None`` or ``[]``: none) and return how
    many there are.

    Raises:
        SpecError ``classifier-images-invalid`` when ``images`` is not a list of image blocks
        (objects with string ``data`` and ``mimeType``), ``classifier-images-unsupported`` when
        the model takes text only (:func:`takes_images`), ``classifier-image-type`` for a media
        type the model does not take and ``classifier-images-too-many`` above its limit
        (:func:`image_formats`); the message names the field (``images[1].mimeType``).
    """
    if images is None:
        return 0
    if not isinstance(images, list):
        raise SpecError("classifier-images-invalid", "images must be a list of image blocks", path="images")
    for i, image in enumerate(images):
        if not isinstance(image, dict) or not isinstance(image.get("data"), str) or not isinstance(image.get("mimeType"), str):
            raise SpecError("classifier-images-invalid", f"images[{i}] must be an image block with string data and mimeType", path=f"images[{i}]")
    if not images:
        return 0
    if takes_images(entry, edition) is False:
        raise SpecError("classifier-images-unsupported", f'classifier "{entry.provider}/{entry.id}" takes no images', path="images")
    types, most = image_formats(entry)
    if most is not None and len(images) > most:
        raise SpecError("classifier-images-too-many", f'classifier "{entry.id}" takes at most {most} images, got {len(images)}', path="images")
    for i, image in enumerate(images):
        if types is not None and image["mimeType"] not in types:
            raise SpecError("classifier-image-type", f'images[{i}].mimeType: classifier "{entry.id}" takes {", ".join(types)}, got {image["mimeType"]}',
                            path=f"images[{i}].mimeType")
    return len(images)
