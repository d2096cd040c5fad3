"""Round trips per second of ``kit.echo`` through ``serve-reference`` on one core.

Run on demand (not part of the tests)::

    .venv/bin/python benchmarks/roundtrip.py [--seconds 3] [--cpu 0] [--no-pin]

The kit's client and the served reference are pinned to the same CPU (where the platform allows
it), so the figure is what one core gives with both ends of the protocol on it. Target: 2,000 or
more round trips per second. Exit code 0 when the target is met, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from conformance.adapters.client import JsonLinesAdapter

TARGET = 2000.0
SMALL = {"value": "ping"}
TYPICAL = {"value": {"id": "env-order-001", "items": [{"id": f"c{i}", "priority": i, "content": "x" * 80} for i in range(8)]}}


def measure(adapter: JsonLinesAdapter, payload: dict, seconds: float) -> tuple[int, float]:
    """(round trips, elapsed seconds) of ``kit.echo`` with ``payload`` for about ``seconds``."""
    count = 0
    began = time.perf_counter()
    deadline = began + seconds
    while True:
        for _ in range(100):
            answer = adapter.run("kit.echo", payload, root=None, timeout=10)
            if answer.kind != "result" or answer.output != payload:
                raise SystemExit(f"unexpected answer: {answer}")
        count += 100
        now = time.perf_counter()
        if now >= deadline:
            return count, now - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--cpu", type=int, default=None, help="the CPU to pin to (default: the first allowed)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    args = parser.parse_args(argv)

    pinned = "not pinned"
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})  # the adapter process inherits it
        pinned = f"pinned to CPU {cpu}"

    adapter = JsonLinesAdapter([sys.executable, "-m", "conformance.adapters.server"], name="serve-reference")
    began = time.perf_counter()
    hello = adapter.start()
    startup = time.perf_counter() - began
    try:
        measure(adapter, SMALL, 0.3)  # warm up
        results = [(label, *measure(adapter, payload, args.seconds)) for label, payload in
                   (("small value", SMALL), ("typical case-sized value", TYPICAL))]
    finally:
        adapter.stop()

    print(f"serve-reference ({hello.name} {hello.version}), {pinned}; start-up and handshake {startup * 1000:.0f} ms")
    for label, count, elapsed in results:
        rate = count / elapsed
        print(f"kit.echo, {label}: {count} round trips in {elapsed:.2f} s = {rate:,.0f}/s "
              f"({1e6 / rate:.0f} us each)")
    rate = results[0][1] / results[0][2]
    verdict = "meets" if rate >= TARGET else "MISSES"
    print(f"{verdict} the target of {TARGET:,.0f} round trips per second")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
