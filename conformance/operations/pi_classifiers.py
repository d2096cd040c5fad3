"""Operations of classifier models (Pi's docs "Choose a Model", PI-DECISION-MODELS): the built-in classifier
catalogue, the check of a classify request and the cost of a classifier call.

Declared apart from :mod:`conformance.operations.pi_models` (``models.json`` and credentials,
which also lists the available classifier models) so that a case of either builds its own models
only.
"""

from __future__ import annotations

from typing import Any, Literal

from conformance.operations.base import OpModel, operation


class CatalogueInput(OpModel):
    """No input."""


class CatalogueEntry(OpModel):
    provider: str
    id: str
    type: Literal["classifier"]
    env: list[str]
    login: bool
    cost: dict[str, float] | None


class CatalogueOutput(OpModel):
    models: list[CatalogueEntry]


class ClassifyRequestInput(OpModel):
    """A ``classify`` call: the model and the request ``{state, questions}`` (any JSON, checked by
    the implementation); ``images`` (revision 2, edition pi-1.6.0) are the image blocks
    ``{type: "image", data, mimeType}`` passed with it (any JSON, checked; ``null``: none)."""

    provider: str
    model: str
    request: Any = None
    images: Any = None


class QuestionRef(OpModel):
    id: str
    type: Literal["choice", "bool", "score"]


class ClassifyRequestOutput(OpModel):
    """The accepted questions in request order."""

    questions: list[QuestionRef]


class Price(OpModel):
    """A catalogue price in USD per million tokens."""

    input: float
    output: float
    cacheRead: float = 0
    cacheWrite: float = 0


class ClassifierUsageInput(OpModel):
    """The usage a classifier service reported (``{input_tokens, output_tokens}`` or anything else)
    and the model's catalogue price (``null``: none)."""

    provider: str
    model: str
    usage: Any = None
    cost: Price | None = None


class ClassifierUsageOutput(OpModel):
    """The result's ``usage`` (``null`` when the service reported no token counts)."""

    usage: dict[str, Any] | None


CLASSIFIER_CATALOGUE = operation("pi.classifier-catalogue", input=CatalogueInput, output=CatalogueOutput,
                                 summary="The built-in classifier catalogue: providers, model ids, credentials.")
CLASSIFIER_REQUEST = operation("pi.classifier-request", input=ClassifyRequestInput, output=ClassifyRequestOutput,
                               summary="Check a classify request: state object, typed questions (choice, bool, score).")
CLASSIFIER_USAGE = operation("pi.classifier-usage", input=ClassifierUsageInput, output=ClassifierUsageOutput,
                             summary="Price a classifier call's reported tokens from the catalogue price.")
