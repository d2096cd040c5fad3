"""The error codes an operation may answer that no clause of the catalogue names, each with its
meaning, by operation: pure data, which declaring an operation reads."""

from __future__ import annotations

_TREE = {
    "tree-missing": "the case gives no file tree, and the operation reads one",
    "input-path-outside-tree": "an input path (cwd, agentDir, home, an explicit path) is absolute or has a "
                               "`..` part, so it would lead outside the case's file tree",
}
_BUILTINS = {
    "builtin-provider-invalid": "a built-in provider given in `builtins` is not one: a model of it has no "
                                "`api` or `baseUrl` of its own or of the provider's",
}
_MODEL = {"model-unknown": "no model of that id on that provider, built in or from `models.json`"}
_BUILD = {
    "build-failed": "a contribution's content failed while the envelope was built; the message is "
                    "`System prompt build failed: MESSAGE` (ENV-RENDER-CONTENT, ENV-DECISION-SERVICE)",
}

ERRORS: dict[str, dict[str, str]] = {
    "envelope.environment": {
        "environment-date-invalid": "`host.date` is not a calendar date written YYYY-MM-DD (ENV-ENV-FORMAT: "
                                    "`2026-03-01`, not `01/03/2026`, `20260301` or `2026-W09-7`)",
    },
    "envelope.developer-messages": _BUILD,
    "envelope.build": {
        **_BUILD,
        "request-host-missing": "the request gives no `host`",
    },
    "envelope.session": {
        "request-host-missing": "a captured request gives no `host`, and the script gives no default host",
    },
    "pi.classifier-request": {
        "classifier-unknown": "no classifier model of that id on that provider in the catalogue "
                              "(PI-CLASSIFIER-CATALOGUE); a chat model is not one",
        "classifier-context-invalid": "the request is not a JSON object (PI-CLASSIFIER-REQUEST)",
        "classifier-state-invalid": "the request's `state` is missing or not a JSON object (PI-CLASSIFIER-REQUEST)",
        "classifier-questions-invalid": "`questions` is not an object of question ids to questions "
                                        "(PI-CLASSIFIER-REQUEST)",
        "classifier-question-invalid": "a question is not an object, its `instructions` not a string, or its "
                                       "`criteria` not what its type asks (PI-CLASSIFIER-REQUEST)",
        "classifier-question-type-unknown": "a question's `type` is not `choice`, `bool` or `score` "
                                            "(PI-CLASSIFIER-REQUEST)",
    },
    "pi.models-value": {
        "config-value-not-string": "the value is not a string",
        "config-command-not-allowed": "the value is a `!command`, and the case does not let commands run",
    },
    "pi.models-load": _BUILTINS,
    "pi.models-auth": {**_MODEL, **_BUILTINS},
    "pi.models-sampling": {**_MODEL, **_BUILTINS},
    "pi.models-available": _BUILTINS,
    "pi.packages-resolve": _TREE,
    "pi.load-templates": _TREE,
    "profiles.load": _TREE,
    "profiles.resolve": {
        **_TREE,
        "input-invalid": "a manual session selection names no profile",
    },
    "profiles.config": {"input-invalid": "the input gives both or neither of `text` and `config`"},
    "profiles.settings": {
        "input-invalid": "`key` is missing, a parse gives no `scope` or `value`, or a scope's config is "
                         "neither an object nor null",
    },
    "profiles.picker": {"input-invalid": "the action lacks what it needs: `provider` for models, `total` for "
                                         "the window"},
    "profiles.config-edit": _TREE,
    "profiles.session": {
        **_TREE,
        "step-invalid": "a step's `do` names no step",
    },
}
"""Operation name -> ``{code: meaning}``. The codes a clause names are documented there (``refused``
and the statement name them: ENV-CONTRIB-ID's ``contribution-id-blank``); codes inside an answer
are documented by the operation's output models. :func:`conformance.operations.base.operation`
gives each operation its entry, and the published output schema carries it as ``x-errors``."""

RENAMED: dict[str, str] = {
    "tree-required": "tree-missing",
    "path-outside-tree": "input-path-outside-tree",
}
"""Former name -> name of a code renamed so that one meaning has one name (the pi operations
said ``tree-required``, the profiles ones ``path-outside-tree``); the kit names the new code when
an adapter answers the old one. ``conformance/PROTOCOL.md`` ("Versions") records the change."""
