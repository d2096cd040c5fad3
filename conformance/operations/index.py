"""The operation catalogue by name only: which module of this package declares each operation and
each normaliser. Plain data, importing nothing, so that a command which needs only names imports no
operation module (``tests/test_operations_index.py`` keeps the tables true)."""

from __future__ import annotations

OPERATIONS: dict[str, str] = {
    "envelope.build": "envelope",
    "envelope.context-hook": "envelope",
    "envelope.context-message": "envelope",
    "envelope.developer-messages": "envelope",
    "envelope.environment": "envelope",
    "envelope.instructions": "envelope",
    "envelope.session": "envelope_session",
    "envelope.settings": "envelope",
    "kit.echo": "kit",
    "pi.classifier-catalogue": "pi_classifiers",
    "pi.classifier-request": "pi_classifiers",
    "pi.classifier-usage": "pi_classifiers",
    "pi.convert-to-llm": "pi_messages",
    "pi.expand-input": "pi_templates",
    "pi.load-templates": "pi_templates",
    "pi.models-auth": "pi_models",
    "pi.models-available": "pi_models",
    "pi.models-load": "pi_models",
    "pi.models-sampling": "pi_models",
    "pi.models-value": "pi_models",
    "pi.package-changelog": "pi_packages",
    "pi.package-source": "pi_packages",
    "pi.packages-resolve": "pi_packages",
    "pi.parse-args": "pi_templates",
    "pi.replay-system": "pi_messages",
    "pi.substitute-args": "pi_templates",
    "pi.validate-message": "pi_messages",
    "profiles.compose": "profiles",
    "profiles.config": "profiles",
    "profiles.config-edit": "profiles",
    "profiles.load": "profiles",
    "profiles.match": "profiles",
    "profiles.picker": "profiles",
    "profiles.resolve": "profiles",
    "profiles.session": "profiles",
    "profiles.settings": "profiles",
    "profiles.strip": "profiles",
}
"""Every operation's name: the module of :mod:`conformance.operations` that declares it."""

NORMALISERS: dict[str, str] = {
    "pi.drop-messages": "pi_models",
    "pi.named-image-models": "pi_models",
    "profiles.control-statement": "profiles_control",
}
"""Every normaliser's name (:mod:`conformance.judge.normalise`): the module of
:mod:`conformance.operations` that declares it."""
