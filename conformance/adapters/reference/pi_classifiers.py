"""Reference handlers of the classifier operations (see :mod:`conformance.operations.pi_classifiers`)."""

from __future__ import annotations

from conformance.adapters.reference import Context, implements
from conformance.operations.pi_classifiers import (
    CatalogueInput,
    CatalogueOutput,
    ClassifierUsageInput,
    ClassifierUsageOutput,
    ClassifyRequestInput,
    ClassifyRequestOutput,
)
from reference.pi.core import classifier_images, classifiers


@implements("pi.classifier-catalogue")
def classifier_catalogue(inp: CatalogueInput, ctx: Context) -> CatalogueOutput:
    return CatalogueOutput.model_validate({"models": [e.to_json() for e in classifiers.classifier_catalogue(ctx.edition)]})


@implements("pi.classifier-request")
def classifier_request(inp: ClassifyRequestInput, ctx: Context) -> ClassifyRequestOutput:
    entry = classifiers.find_classifier(inp.provider, inp.model, ctx.edition)
    questions = classifiers.validate_classify_request(inp.request)
    classifier_images.check_images(entry, inp.images, ctx.edition)
    return ClassifyRequestOutput.model_validate({"questions": questions})


@implements("pi.classifier-usage")
def classifier_usage(inp: ClassifierUsageInput, ctx: Context) -> ClassifierUsageOutput:
    entry = classifiers.find_classifier(inp.provider, inp.model, ctx.edition)
    price = inp.cost.model_dump() if inp.cost is not None else entry.cost
    return ClassifierUsageOutput(usage=classifiers.classifier_usage(inp.usage, price))
