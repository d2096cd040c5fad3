"""Time to build one envelope with many contributions, and to audit many turns.

Run on demand: ``.venv/bin/python benchmarks/envelope_build.py [--contributions N] [--turns N]``.
Targets: one build with 200 contributions under 20 ms; 500 captures on one branch (each changing
one instruction) under 2 s in total.
"""

from __future__ import annotations

import argparse
import time

from reference.envelope.build import EnvelopeRequest, build_envelope
from reference.envelope.contributions import Contribution, register_contribution
from reference.envelope.environment import HostFacts
from reference.envelope.globals import GlobalScope
from reference.envelope.service import EnvelopeService

HOST = HostFacts(platform="linux", shell="/usr/bin/fish", shells=frozenset({"bash"}), date="2025-01-31",
                 timezone="Europe/Lisbon")


def request(prompt: str = "go") -> EnvelopeRequest:
    return EnvelopeRequest(
        sessionId="bench", provider="openai-codex", activeTools=("read", "exec_command"), prompt=prompt,
        systemPrompt="PI", systemPromptOptions={"contextFiles": [{"path": "/w/AGENTS.md", "content": "Rules."}]},
        cwd="/w", agentDir="/home/u/.pi/agent", host=HOST,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contributions", type=int, default=200)
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    items = [
        Contribution(id=f"ext-{i % 17}/part-{i}", priority=(i % 7) - 3, providers=None if i % 3 else ("openai-codex",),
                     content=lambda ctx, i=i: f"  instruction {i} for {ctx.sessionId}  ")
        for i in range(args.contributions)
    ]
    build_envelope(items, request())  # warm the collator
    best = min(_timed(lambda: build_envelope(items, request())) for _ in range(args.repeat))
    print(f"build, {args.contributions} contributions: {best * 1000:.2f} ms (target < 20 ms)")

    service = EnvelopeService(GlobalScope())
    for item in items[:20]:
        register_contribution(service.contributions, item)
    register_contribution(service.contributions, Contribution(id="mode", content=lambda ctx: f"Mode: {ctx.prompt}"))
    total = _timed(lambda: [service.capture(request(prompt=f"turn {t}")) for t in range(args.turns)])
    print(f"{args.turns} captures with audit on one branch: {total:.3f} s (target < 2 s)")


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
