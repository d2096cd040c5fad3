"""Strategies of the ``models.json`` and credential operations (N23): a well-formed built-in
provider (every built-in model has an id, as Pi's catalogue does), ``models.json`` providers that
override it or add models, and every credential source -- runtime key, stored ``auth.json`` key,
``models.json`` ``apiKey`` in each value form, environment variable -- each set, empty or absent.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance.strategies.registry import strategy


BUILTIN = {"acme": {"baseUrl": "https://api.acme.test/v1", "api": "openai-completions", "env": ["ACME_API_KEY"],
                    "models": [{"id": "acme-large"}, {"id": "acme-small", "reasoning": True}]}}
KEY_VALUES = ("key", "", "$ACME_API_KEY", "${OTHER}", "$$literal", "!echo cmd-key", "!false")
MODEL_FIELDS = st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["Large", ""]), "reasoning": st.booleans(),
    "contextWindow": st.sampled_from([1, 128000, 0, -1, 1.5]), "maxTokens": st.sampled_from([1, 16384, 0]),
    "input": st.sampled_from([["text"], ["text", "image"], [], ["audio"]]),
    "cost": st.sampled_from([{"input": 1, "output": 2}, {"input": -1}, {}])})


@st.composite
def models_json(draw: Any) -> Any:
    """A ``models.json`` document: overrides of ``acme``, a new provider, or a malformed file."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from([None, [], "text", {"providers": []}, {}]))
    providers: dict = {}
    if draw(st.booleans()):
        acme: dict = {}
        if draw(st.booleans()):
            acme["apiKey"] = draw(st.sampled_from(KEY_VALUES))
        if draw(st.booleans()):
            acme["models"] = [{"id": draw(st.sampled_from(["acme-large", "acme-new", ""])), **draw(MODEL_FIELDS)}]
        if draw(st.booleans()):
            acme["headers"] = {"X-Key": draw(st.sampled_from(KEY_VALUES))}
        providers["acme"] = acme
    if draw(st.booleans()):
        providers["custom"] = {"baseUrl": "https://custom.test", "api": "openai-completions",
                               "apiKey": draw(st.sampled_from(KEY_VALUES)),
                               "models": [{"id": "c1", **draw(MODEL_FIELDS)}]}
    return {"providers": providers}


@st.composite
def credential_inputs(draw: Any) -> dict:
    """The built-in ``acme`` and any mix of its credential sources."""
    data: dict = {"builtins": BUILTIN}
    if draw(st.booleans()):
        data["modelsJson"] = draw(models_json())
    env = draw(st.dictionaries(st.sampled_from(["ACME_API_KEY", "OTHER"]), st.sampled_from(["env-key", ""]),
                               max_size=2))
    if env:
        data["env"] = env
    if draw(st.booleans()):
        data["authJson"] = {"acme": draw(st.sampled_from([{"type": "api_key", "key": "stored"},
                                                          {"type": "api_key", "key": ""}, {"type": "oauth"}]))}
    if draw(st.booleans()):
        data["runtimeKeys"] = {"acme": draw(st.sampled_from(["rt", ""]))}
    return data


@strategy("pi.models-load")
def models_load() -> Any:
    """Examples ``(input, tree)`` of ``pi.models-load`` (see the module docstring)."""
    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        data: dict = {"builtins": BUILTIN}
        if draw(st.integers(0, 4)) == 0:
            data["modelsJsonText"] = draw(st.sampled_from(['{"providers": {}}', "{", "", '{"providers": {},}']))
        else:
            data["modelsJson"] = draw(models_json())
        return data, None

    return build()


@strategy("pi.models-auth")
def models_auth() -> Any:
    """Examples ``(input, tree)`` of ``pi.models-auth`` (see the module docstring)."""
    return st.tuples(credential_inputs(), st.sampled_from([("acme", "acme-large"), ("custom", "c1"), ("acme", "nope")])) \
        .map(lambda e: ({**e[0], "provider": e[1][0], "model": e[1][1]}, None))


@strategy("pi.models-available")
def models_available() -> Any:
    """Examples ``(input, tree)`` of ``pi.models-available`` (see the module docstring)."""
    return credential_inputs().map(lambda data: (data, None))



