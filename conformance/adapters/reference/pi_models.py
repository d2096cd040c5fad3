"""Reference handlers of the models.json and credential operations (the classifier operations'
handlers are :mod:`conformance.adapters.reference.pi_classifiers`)."""

from __future__ import annotations

from conformance.adapters.reference import Context, implements
from conformance.operations.pi_models import (
    AuthInput,
    AuthOutput,
    AvailableInput,
    AvailableOutput,
    CredentialInputs,
    ModelsLoadInput,
    ModelsLoadOutput,
    SamplingInput,
    SamplingOutput,
    ValueInput,
    ValueOutput,
)
from reference.pi.core import availability, classifiers, credentials, image_models, merge, sampling
from conformance.corpus.shell import run_contained as run_shell_command
from reference.pi.core.values import parse_config_value, resolve_config_value

# Commands run contained under the kit (conformance.corpus.shell): the reference's own runner
# (reference.pi.host.commands) in a scratch folder, a process group and namespaces of their own.


def _builtins(inp: CredentialInputs | ModelsLoadInput) -> dict:
    return {pid: b.model_dump(mode="json") for pid, b in inp.builtins.items()}


def _creds(inp: CredentialInputs) -> credentials.Credentials:
    return credentials.Credentials(env=dict(inp.env), auth_json=dict(inp.authJson), runtime_keys=dict(inp.runtimeKeys))


@implements("pi.models-value")
def models_value(inp: ValueInput, ctx: Context) -> ValueOutput:
    parsed = parse_config_value(inp.value)
    resolved = resolve_config_value(parsed, inp.env, run_shell_command)
    return ValueOutput(form=parsed.form, variables=parsed.env_names, resolved=resolved)


def _model_out(m: dict) -> dict:
    return {**m, "imageResize": merge.effective_image_resize(m), "cacheWarming": merge.cache_warming_tiers(m)}


@implements("pi.models-load")
def models_load(inp: ModelsLoadInput, ctx: Context) -> ModelsLoadOutput:
    registry = merge.build_registry(_builtins(inp), inp.modelsJson, inp.modelsJsonText, ctx.edition)
    providers = [
        {"id": p.id, "name": p.name, "baseUrl": p.baseUrl, "models": [_model_out(m) for m in p.models]}
        for _, p in sorted(registry.providers.items())
    ]
    return ModelsLoadOutput.model_validate({"providers": providers, "issues": [i.to_json() for i in registry.issues]})


@implements("pi.models-sampling")
def models_sampling(inp: SamplingInput, ctx: Context) -> SamplingOutput:
    registry = merge.build_registry(_builtins(inp), inp.modelsJson, edition=ctx.edition)
    model = merge.find_model(registry, inp.provider, inp.model)
    return SamplingOutput.model_validate(sampling.request_sampling(model, inp.thinkingLevel, inp.samplingParams))


@implements("pi.models-auth")
def models_auth(inp: AuthInput, ctx: Context) -> AuthOutput:
    registry = merge.build_registry(_builtins(inp), inp.modelsJson, edition=ctx.edition)
    merge.find_model(registry, inp.provider, inp.model)
    provider = registry.providers[inp.provider]
    result = credentials.resolve_request_auth(
        inp.provider, inp.model, provider.config, credentials.env_auth_of(provider.builtin), _creds(inp), run_shell_command
    )
    return AuthOutput.model_validate(result.to_json())


@implements("pi.models-available")
def models_available(inp: AvailableInput, ctx: Context) -> AvailableOutput:
    registry = merge.build_registry(_builtins(inp), inp.modelsJson, edition=ctx.edition)
    creds = _creds(inp)
    if inp.type == "chat":
        listed = availability.available_models(registry, creds)
        sources = [
            {"provider": pid, "source": credentials.configured_source(pid, p.config, credentials.env_auth_of(p.builtin), creds)}
            for pid, p in sorted(registry.providers.items())
        ]
    elif inp.type == "image":
        configs = {pid: p.config for pid, p in registry.providers.items() if p.config is not None}
        listed = image_models.available_image_models(creds, configs, ctx.edition)
        catalogued = bool(image_models.image_catalogue(ctx.edition))
        sources = [{"provider": image_models.IMAGE_PROVIDER, "source": image_models.image_source(creds, configs)}] if catalogued else []
    else:
        configs = {pid: p.config for pid, p in registry.providers.items() if p.config is not None}
        listed = classifiers.available_classifiers(creds, configs, ctx.edition)
        entries = {e.provider: e for e in classifiers.classifier_catalogue(ctx.edition)}
        sources = [
            {"provider": pid, "source": credentials.configured_source(pid, configs.get(pid), entries[pid].env_auth, creds)}
            for pid in sorted(entries)
        ]
    return AvailableOutput.model_validate({"models": listed, "sources": sources})
