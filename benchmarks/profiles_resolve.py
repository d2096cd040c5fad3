"""Time to resolve the profile for a model, against 10, 50 and 200 bindings and a 256 KiB chain.

Run on demand: ``.venv/bin/python benchmarks/profiles_resolve.py [--iterations N]``.

pi-prompt-profiles' architecture document reports a mean of about 0.009 ms per resolution against
50 bindings on its author's machine (TypeScript on Node, its ``npm run bench``). This script
measures :func:`reference.profiles.core.resolve.resolve` on the loaded state (no disk), the same
thing that benchmark measures, and prints the mean
per call for each case; ``compose`` adds the composition of the managed block over a base prompt.
"""

from __future__ import annotations

import argparse
import json
import time

from reference.profiles.core.compose import compose
from reference.profiles.core.config import parse_config
from reference.profiles.core.profiles import DirEntry, build_catalogue
from reference.profiles.core.resolve import resolve
from reference.profiles.core.types import Model, ScopeState, State

PROVIDERS = ["openai", "anthropic", "openrouter", "google", "deepseek"]


def bindings(n: int) -> list[dict]:
    """``n`` bindings of mixed shapes (exact, provider-only, model patterns with ``/``), none of
    which ties with another, with the one that matches the benchmark model last."""
    out = []
    for i in range(n - 1):
        provider = PROVIDERS[i % len(PROVIDERS)]
        shape = i % 4
        rule = ({"provider": provider, "model": f"model-{i}"} if shape == 0 else
                {"provider": provider, "model": f"family-{i}/*"} if shape == 1 else
                {"model": f"*-{i}"} if shape == 2 else
                {"provider": f"{provider}-{i}"})
        out.append({"id": f"b{i}", "profile": "base", "priority": i % 3, "match": [rule, {"provider": f"x{i}", "model": f"y{i}"}]})
    out.append({"id": "hit", "profile": "review", "priority": 5, "match": [{"provider": "openrouter", "model": "deepseek/*"}]})
    return out


def state(n: int, chain_layers: int = 2, layer_bytes: int = 64) -> State:
    bodies = {"base": "b" * layer_bytes, "review": "r" * layer_bytes}
    extends = {"review": "base"}
    for i in range(chain_layers - 2):
        bodies[f"l{i}"] = "l" * layer_bytes
        extends["base" if i == 0 else f"l{i - 1}"] = f"l{i}"
    profiles, _ = build_catalogue([DirEntry(f"{k}.md", "file", v.encode()) for k, v in bodies.items()], "global")
    cfg, diags = parse_config(json.dumps({"version": 1, "bindings": bindings(n),
                                          "profiles": {k: {"extends": v} for k, v in extends.items()}}), "global")
    assert cfg is not None and not diags, diags
    return State(ScopeState("global", profiles, cfg), None)


def mean_ms(fn, iterations: int, repeats: int = 3) -> float:
    """The mean time per call in milliseconds: the lowest of ``repeats`` runs of ``iterations``
    calls each (the lowest run is the one least disturbed by other work on the machine)."""
    for _ in range(min(1000, iterations)):
        fn()
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(iterations):
            fn()
        runs.append((time.perf_counter() - start) / iterations * 1000)
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20000)
    args = parser.parse_args()
    model = Model("openrouter", "deepseek/deepseek-chat")
    print(f"{'case':<42} {'mean ms/call':>12}")
    for n in (10, 50, 200):
        st = state(n)
        res = resolve(st, model)
        assert res.profile is not None and str(res.profile.ref) == "global:review"
        print(f"{f'resolve, {n} bindings':<42} {mean_ms(lambda: resolve(st, model), args.iterations):>12.4f}")
    big = state(50, chain_layers=8, layer_bytes=32 * 1024)
    res = resolve(big, model)
    assert res.profile is not None and len(res.profile.layers) == 8
    assert sum(len(layer.body) for layer in res.profile.layers) == 256 * 1024
    print(f"{'resolve, 50 bindings, 8 layers / 256 KiB':<42} {mean_ms(lambda: resolve(big, model), args.iterations):>12.4f}")
    bodies = [layer.body for layer in res.profile.layers]
    base = "You are Pi.\n" * 200
    print(f"{'compose, 256 KiB chain':<42} {mean_ms(lambda: compose(base, bodies), max(1, args.iterations // 10)):>12.4f}")
    print(f"{'resolve + compose, 50 bindings, 256 KiB':<42} "
          f"{mean_ms(lambda: compose(base, [l.body for l in resolve(big, model).profile.layers]), max(1, args.iterations // 10)):>12.4f}")


if __name__ == "__main__":
    main()
