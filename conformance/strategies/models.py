"""Strategies of the ``models.json`` and credential operations (PI-DECISION-MODELS): a well-formed built-in
provider (every built-in model has an id, as Pi's catalogue does), ``models.json`` providers that
override it or add models, and every credential source -- runtime key, stored ``auth.json`` key,
``models.json`` ``apiKey`` in each value form, environment variable -- each set, empty or absent.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance.strategies.registry import frames, strategy


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
            data["modelsJsonText"] = draw(st.sampled_from(['{"providers": {}}', "{", "", '{"providers": {},}',
                                                           '{"providers": {"acme": {"models": [{"id": "x, ]", "input": ["text",],}, // last\n],},},}']))
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



# --- classifiers (Pi's docs "Classifier models") --------------------------------------------------

CLASSIFIERS = (("typesafe", "jev-latest"), ("openrouter", "typesafe/jev-1.13"), ("openrouter", "~typesafe/jev-latest"),
               ("cloudflare-workers-ai", "typesafe/jev"), ("vercel-ai-gateway", "typesafe-ai/jev"),
               ("opencode", "jev-1.13"), ("opencode", "jev-1.13-free"),
               ("openrouter", "jev-latest"), ("typesafe", "JEV-LATEST"), ("acme", "acme-large"), ("", ""))
"""The catalogue's classifiers (PI-CLASSIFIER-CATALOGUE) and near misses: another provider's id,
another case, a chat model, empty names."""

QUESTIONS = {
    "choice": {"type": "choice", "instructions": "Which?", "criteria": {"ui": "User interface", "core": "Core"}},
    "bool": {"type": "bool", "instructions": "Is it?", "criteria": {"true": "Yes", "false": "No"}},
    "score": {"type": "score", "instructions": "How much?", "criteria": ["low", "mid", "high"]},
}
BAD_QUESTION_PARTS = {"type": ["Bool", "number", None, 1], "instructions": ["", None, 1, ["x"]],
                      "criteria": [{}, [], {"true": "Yes"}, {"yes": "Y", "no": "N"}, ["one"], "x", None,
                                   {"ui": 1}, [1, 2]]}


@st.composite
def classify_request(draw: Any) -> Any:
    """A ``{state, questions}`` request: questions of each type, in any order, now and then one
    field of one question, the state or the questions object replaced by a value the rule refuses."""
    if draw(st.integers(0, 14)) == 0:
        return draw(st.sampled_from([None, [], "x", {}]))
    names = draw(st.lists(st.sampled_from(["q", "severity", "a.b", "Z", "1"]), min_size=1, max_size=3, unique=True))
    questions = {n: dict(QUESTIONS[draw(st.sampled_from(sorted(QUESTIONS)))]) for n in names}
    if draw(st.integers(0, 2)) == 0:
        name = draw(st.sampled_from(names))
        part = draw(st.sampled_from(sorted(BAD_QUESTION_PARTS)))
        value = draw(st.sampled_from(BAD_QUESTION_PARTS[part]))
        if value is None and draw(st.booleans()):
            del questions[name][part]
        else:
            questions[name][part] = value
    state = draw(st.sampled_from([{}, {"message": "ok"}, {"n": [1, 2]}]) if draw(st.integers(0, 5))
                 else st.sampled_from([[1], "s", None]))
    request: dict = {"state": state,
                     "questions": questions}
    if draw(st.integers(0, 9)) == 0:
        request["questions"] = draw(st.sampled_from([{}, [], None, "q"]))
    if draw(st.integers(0, 9)) == 0:
        del request[draw(st.sampled_from(["state", "questions"]))]
    return request


@strategy("pi.classifier-request")
def classifier_request() -> Any:
    """Examples ``(input, tree)`` of ``pi.classifier-request`` (see :func:`classify_request`)."""
    return st.tuples(st.sampled_from(CLASSIFIERS), classify_request()) \
        .map(lambda e: ({"provider": e[0][0], "model": e[0][1], "request": e[1]}, None))


COUNTS = (0, 1, 3, 1200, 1_000_000, 2_000_000, -5, 0.5, "7", None, True)
"""Token counts a service may report: zero, one, one million (the price unit), and the values that
count as zero (negative, not a number)."""


@strategy("pi.classifier-usage")
def classifier_usage() -> Any:
    """The catalogue's classifiers with reported usage (either count, both, neither, malformed)
    and a price (none, zero, whole, fractional, with cache prices)."""
    usage = st.one_of(st.fixed_dictionaries({}, optional={"input_tokens": st.sampled_from(COUNTS),
                                                          "output_tokens": st.sampled_from(COUNTS),
                                                          "request_id": st.just("r1")}),
                      st.sampled_from([None, [], "x", 3]))
    price = st.one_of(st.none(), st.fixed_dictionaries(
        {"input": st.sampled_from([0, 0.25, 1, 3]), "output": st.sampled_from([0, 2, 4, 0.5])},
        optional={"cacheRead": st.sampled_from([0, 0.1]), "cacheWrite": st.sampled_from([0, 1.25])}))
    return st.tuples(st.sampled_from(CLASSIFIERS), usage, price).map(
        lambda e: ({"provider": e[0][0], "model": e[0][1], "usage": e[1], "cost": e[2]}, None))


@strategy("pi.classifier-catalogue")
def classifier_catalogue() -> Any:
    """The catalogue takes no input: the one example ``{}``."""
    return st.just(({}, None))


LEVELS = ("off", "minimal", "low", "medium", "high", "xhigh", "max")
"""The thinking levels of ``pi.models-sampling``, lowest first (edition pi-1.6.0)."""
SAMPLING_VALUES = st.sampled_from([{"temperature": 1.0, "top_p": 0.95}, {"temperature": 0.7}, {"top_k": 20},
                                   {"extra_body": {"top_k": 20, "min_p": 0.1}}, {},
                                   {"extra_body": {"chat_template_kwargs": {"enable_thinking": False}}, "stop": ["END"]},
                                   {"extra_body": {}, "stop": None}, {"extra_body": None, "stop": ["\n\n", "END"]}])


@st.composite
def sampling_model(draw: Any) -> dict:
    """One model of a ``models.json`` provider with the fields the sampling rules read: reasoning,
    defaults, entries by thinking level (some levels only), and a thinking level map that drops
    levels (``null``) or maps them to a provider value."""
    model: dict = {"id": "m"}
    if draw(st.integers(0, 3)):  # mostly a reasoning model, whose levels are not all clamped to off
        model["reasoning"] = draw(st.sampled_from([True, True, False]))
    if draw(st.booleans()):
        model["samplingParams"] = draw(SAMPLING_VALUES)
    if draw(st.integers(0, 2)):
        levels = draw(st.lists(st.sampled_from(LEVELS), unique=True, max_size=4))
        model["samplingParamsByThinkingLevel"] = {level: draw(SAMPLING_VALUES) for level in levels}
    if draw(st.integers(0, 2)) == 0:
        levels = draw(st.lists(st.sampled_from(LEVELS), unique=True, min_size=1, max_size=3))
        model["thinkingLevelMap"] = {level: draw(st.sampled_from([None, "extra", "low"])) for level in levels}
    return model


@strategy("pi.models-sampling")
def models_sampling() -> Any:
    """Examples ``(input, tree)`` of ``pi.models-sampling``: one model of a provider of each API
    (the sampling APIs and one that ignores sampling parameters), at every thinking level, with
    and without the request's own parameters (PI-160-MODELS-SAMPLING-*, PI-160-MODELS-THINKING-*)."""
    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        api = draw(st.sampled_from(["openai-completions", "openai-responses", "anthropic-messages"]))
        provider = {"baseUrl": "http://localhost:8000/v1", "api": api, "apiKey": "local",
                    "models": [draw(sampling_model())]}
        entries = list(provider["models"][0].get("samplingParamsByThinkingLevel") or ())
        # Half the time a level that has its own entry, so the entry meets the request's values.
        level = draw(st.sampled_from(entries if entries and draw(st.booleans()) else LEVELS))
        data: dict = {"modelsJson": {"providers": {"local": provider}}, "provider": "local", "model": "m",
                      "thinkingLevel": level}
        if draw(st.integers(0, 2)):  # the request's own values, mostly on keys the model's layers set too
            data["samplingParams"] = draw(st.sampled_from([{"temperature": 0.2, "seed": 7},
                                                           {"temperature": 0.3, "extra_body": {"top_k": 5}}, {},
                                                           {"extra_body": {"chat_template_kwargs": {"budget": 64}}, "stop": None}]))
        return data, None

    return build()


BUILTINS = {"acme": {"name": "Acme", "baseUrl": "https://api.acme.test/v1", "api": "openai-completions", "env": ["ACME_API_KEY"],
                     "models": [{"id": "acme-large", "promptCache": {"short": 300}, "cost": {"input": 3, "output": 15},
                                 "inputLimits": {"images": {"resize": {"maxWidth": 1568}}}},
                                {"id": "acme-small", "api": "anthropic-messages"}]}}
"""A built-in provider with two models, one with a prompt cache, costs and image limits."""


@frames("pi.models-load")
def models_load_frames() -> list[tuple[dict, None]]:
    """No file, no built-in provider, a text with comments, ``//`` and ``,]`` in a string and
    trailing commas (before ``}`` and ``]``, at several depths, a comment before the bracket),
    every schema failure (several, past index 9, unknown keys), every composition error, models
    replacing built-in ones with null fields, an empty input and compat, models taking
    their api from the models before them, image limits and cache tiers, every override form."""
    text = ('{\n  // a comment\n  "providers": {"acme": {"baseUrl": "https://api.acme.test//v2", "models": '
            '[{"id": "acme-new", "name": "a // b ,] caf\u00e9 \U0001F600 e\u0301", "input": ["text", // only text\n\t],},],},},\n}')
    many = [{"id": f"m{i}"} for i in range(10)] + [{"name": "no id"}, {}]
    docs = [
        {"providers": {"ollama": {"baseUrl": "http://localhost:11434/v1", "api": "openai-completions", "models": [{"id": "llama"}]}}},
        [], {"providers": []},
        {"providers": {"a": {"baseUrl": "https://a.test", "api": "openai-completions", "models": many, "colour": "red"},
                       "b": {"models": [{"id": ""}]}}},
        {"providers": {"acme": {"compat": {"supportsStore": False}, "models": [
            {"id": "acme-large", "compat": {"supportsDeveloperRole": False}},
            {"id": "acme-small", "input": []}]},
            "oauthy": {"oauth": "radius"}, "empty": {}, "newp": {"models": [{"id": "n1"}]},
            "ok": {"baseUrl": "https://ok.test", "api": "openai-completions", "models": [{"id": "ok-1"}]}}},
        {"providers": {"acme": {"models": [
            {"id": "acme-large"}, {"id": "acme-vision", "api": "anthropic-messages", "inputLimits": {"images": {"resize": {"maxHeight": 512}}},
                                   "promptCache": {"short": 300}},
            {"id": "acme-long", "promptCache": {"long": 3600}}, {"id": "acme-both", "promptCache": {"short": 60, "long": 3600}}]}}},
        {"providers": {"acme": {"modelOverrides": {
            "acme-large": {"cost": {"input": 9}, "inputLimits": {"images": {"resize": {"maxWidth": 100}}}, "input": ["text"]},
            "ghost": {"name": "x"}}}}},
        {"providers": {"acme": {"modelOverrides": {"acme-large": {"name": None, "reasoning": None, "input": None, "cost": None,
                                                                   "maxTokens": 4096}}}}},
    ]
    out: list[tuple[dict, None]] = [({"builtins": BUILTINS}, None), ({"builtins": BUILTINS, "modelsJsonText": text}, None)]
    out.append(({"modelsJson": docs[0]}, None))
    nulls = {"id": "qwen", **dict.fromkeys(("name", "reasoning", "input", "cost", "contextWindow", "maxTokens", "compat", "promptCache"))}
    out.append(({"builtins": {}, "modelsJson": {"providers": {"local": {
        "baseUrl": "http://localhost:11434/v1", "api": "openai-completions", "apiKey": "ollama", "models": [nulls]}}}}, None))
    out += [({"builtins": BUILTINS, "modelsJson": doc}, None) for doc in docs[1:]]
    return out


CREDENTIAL_BUILTINS = {**BUILTINS, "cf": {"baseUrl": "https://cf.test", "api": "openai-completions", "env": ["CLOUDFLARE_API_KEY"],
                                          "requiredEnv": ["CLOUDFLARE_ACCOUNT_ID"], "models": [{"id": "cf-1"}]}}
"""``acme`` and a provider that needs a variable besides its key (PI-CRED-REQUIRED-ENV)."""


def _credentials() -> list[dict]:
    """Credential inputs of every source form, one or several at once."""
    headers = {"acme": {"apiKey": "literal-key", "authHeader": True, "headers": {"X-Org": "$ORG", "authorization": "Basic x"},
                        "models": [{"id": "acme-large", "headers": {"x-org": "model"}}],
                        "modelOverrides": {"acme-large": {"headers": {"X-ORG": "override"}}}}}
    return [
        {"authJson": {"acme": {"key": "untyped"}}},
        {"authJson": {"acme": {"access": "token"}}, "env": {"ACME_API_KEY": "env-key"}},
        {"authJson": {"cf": {"type": "api_key", "key": "k", "env": {"CLOUDFLARE_ACCOUNT_ID": "account"}}}},
        {"env": {"CLOUDFLARE_API_KEY": "k"}},
        {"env": {"CLOUDFLARE_API_KEY": "k", "CLOUDFLARE_ACCOUNT_ID": "account"}},
        {"modelsJson": {"providers": headers}, "env": {"ORG": "org"}},
        {"modelsJson": {"providers": {"acme": {"apiKey": "$ACME_KEY2", "authHeader": False}}}, "env": {"ACME_KEY2": "v"}},
        {"authJson": {"acme": {"type": "oauth"}}},
        {"modelsJson": {"providers": {"acme": {"apiKey": ""}}}, "env": {"ACME_API_KEY": "env-key"}},
    ]


@frames("pi.models-auth")
def models_auth_frames() -> list[tuple[dict, None]]:
    """Each credential input of :func:`_credentials` for its provider's model."""
    out = []
    for data in _credentials():
        provider = "cf" if any("cf" in (data.get(k) or {}) for k in ("authJson",)) or "CLOUDFLARE_API_KEY" in (data.get("env") or {}) else "acme"
        out.append(({"builtins": CREDENTIAL_BUILTINS, **data, "provider": provider, "model": "cf-1" if provider == "cf" else "acme-large"}, None))
    return out


@frames("pi.models-available")
def models_available_frames() -> list[tuple[dict, None]]:
    """Each credential input of :func:`_credentials` and ``models.json`` keys of every form and
    local endpoints with and without their dummy key, listed as chat and as classifier models; a
    provider whose models are not in id order."""
    keys = {"providers": {
        "lit": {"baseUrl": "https://lit.test", "api": "openai-completions", "apiKey": "k", "models": [{"id": "l"}]},
        "var": {"baseUrl": "https://var.test", "api": "openai-completions", "apiKey": "$SET", "models": [{"id": "v"}]},
        "unset": {"baseUrl": "https://unset.test", "api": "openai-completions", "apiKey": "${UNSET}", "models": [{"id": "u"}]},
        "cmd": {"baseUrl": "https://cmd.test", "api": "openai-completions", "apiKey": "!false", "models": [{"id": "c"}]},
        "none": {"baseUrl": "https://none.test", "api": "openai-completions", "apiKey": "", "models": [{"id": "n"}]},
        "local": {"baseUrl": "http://localhost:11434/v1", "api": "openai-completions", "apiKey": "ollama", "models": [{"id": "q"}]},
        "bare": {"baseUrl": "http://localhost:1234/v1", "api": "openai-completions", "models": [{"id": "b"}]}}}
    unordered = {"providers": {
        "multi": {"baseUrl": "https://multi.test", "api": "openai-completions", "apiKey": "k",
                  "models": [{"id": "m2"}, {"id": "m10"}, {"id": "m1"}]},
        "acme": {"models": [{"id": "acme-extra"}, {"id": "acme-large", "name": "Large"}]}}}
    return [({"builtins": CREDENTIAL_BUILTINS, **data, "type": kind}, None) for data in _credentials() for kind in ("chat", "classifier")] \
        + [({"builtins": CREDENTIAL_BUILTINS, "modelsJson": keys, "env": {"SET": "s"}}, None),
           ({"builtins": CREDENTIAL_BUILTINS, "modelsJson": unordered, "env": {"ACME_API_KEY": "a"}}, None)]


@frames("pi.models-sampling")
def models_sampling_frames() -> list[tuple[dict, None]]:
    """An azure model whose map drops ``minimal`` asked at ``minimal`` (clamped up), one key in
    the model's, the level's and the request's parameters; a map that leaves no level; an
    override of the per-level parameters; maps with gaps asked at a dropped level with supported
    levels on both sides of it, and with none below it."""
    azure = {"az": {"baseUrl": "https://az.test", "api": "azure-openai-responses", "models": [{
        "id": "az-1", "reasoning": True, "thinkingLevelMap": {"minimal": None}, "samplingParams": {"temperature": 0.2, "top_p": 1},
        "samplingParamsByThinkingLevel": {"low": {"temperature": 0.5}}}]}}
    none_left = {"acme": {"baseUrl": "https://api.acme.test/v1", "api": "openai-completions", "models": [{
        "id": "acme-r", "reasoning": True, "thinkingLevelMap": dict.fromkeys(("off", "minimal", "low", "medium", "high"))}]}}
    override = {"providers": {"az": {"modelOverrides": {"az-1": {"samplingParamsByThinkingLevel": {"low": {"top_p": 0.5}}}}}}}
    gaps = {"gp": {"baseUrl": "http://localhost:8000/v1", "api": "openai-completions", "models": [
        {"id": "gappy", "reasoning": True, "thinkingLevelMap": {"minimal": None, "medium": None, "max": "deepest"}},
        {"id": "no-off", "reasoning": True, "thinkingLevelMap": {"off": None, "minimal": None}}]}}
    return [({"builtins": azure, "provider": "az", "model": "az-1", "thinkingLevel": "minimal",
              "samplingParams": {"temperature": 0.9, "response_format": {"type": "json"}}}, None),
            ({"builtins": none_left, "provider": "acme", "model": "acme-r", "thinkingLevel": "high"}, None),
            ({"builtins": azure, "modelsJson": override, "provider": "az", "model": "az-1", "thinkingLevel": "low"}, None),
            *[({"builtins": gaps, "provider": "gp", "model": model, "thinkingLevel": level}, None)
              for model, level in (("gappy", "minimal"), ("gappy", "xhigh"), ("no-off", "off"))]]


@frames("pi.classifier-request")
def classifier_request_frames() -> list[tuple[dict, None]]:
    """Requests with questions of every type (criteria well and badly formed, any characters),
    no questions, an empty object of them, another type, a question that is not an object; and
    requests with several problems: state and questions, state and a question, instructions and
    type of one question, questions wrong in different ways one after the other."""
    questions = {"c": {"type": "choice", "instructions": "Pick.", "criteria": {"a": "A"}},
                 "b": {"type": "bool", "instructions": "Yes?", "criteria": {"yes": "y"}},
                 "s": {"type": "score", "instructions": "Rate.", "criteria": []}}
    requests = [{"state": {"message": "caf\u00e9 \U0001F600 e\u0301"}, "questions": questions}, {"state": {}, "questions": {}},
                {"state": {}}, {"state": {}, "questions": {"x": {"type": "rank", "instructions": "i", "criteria": {}}}},
                {"state": {}, "questions": {"x": "not an object"}}]
    several = [{"state": [1], "questions": 5}, {"state": None, "questions": {"q": {"type": "bool"}}},
               {"state": {}, "questions": {"q": {"type": "rating", "criteria": 5}}},
               {"state": {}, "questions": {"a": {"type": "Bool", "instructions": "i"}, "b": {"type": "bool", "criteria": {}},
                                           "c": "not an object"}}]
    return [({"provider": "typesafe", "model": "jev-latest", "request": r}, None) for r in requests + several]


@frames("pi.classifier-usage")
def classifier_usage_frames() -> list[tuple[dict, None]]:
    """Usage that is not an object; a million and zero tokens at a price with cache prices; counts
    of every kind that is not a number (a boolean, a string of digits, null, an object, a list),
    negative, and numbers kept (fractional, past 2**53 and exact as a double)."""
    price = {"input": 0.25, "output": 2, "cacheRead": 0.1}
    kinds = [{"input_tokens": True, "output_tokens": "12"}, {"input_tokens": None, "output_tokens": {"total": 5}},
             {"input_tokens": [3], "output_tokens": False}, {"input_tokens": 0.5, "output_tokens": 3},
             {"input_tokens": -2.5, "output_tokens": 2**53 + 10**15}]
    return [({"provider": "opencode", "model": "jev-1.13", "usage": "x", "cost": price}, None),
            ({"provider": "opencode", "model": "jev-1.13", "usage": {"input_tokens": 1_000_000, "output_tokens": 0}, "cost": price}, None),
            *[({"provider": "opencode", "model": "jev-1.13", "usage": usage, "cost": price}, None) for usage in kinds]]
