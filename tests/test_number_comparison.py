"""Numbers are compared by value: an integral double an implementation answers (JavaScript writes
``1e+21`` for ten to the 21st) equals the integer a golden holds, at any size, and two numbers that
differ in value never compare equal; the parse cache's compared forms change with that code."""

from __future__ import annotations

import json

import pytest

from conformance.corpus import yamlcache
from conformance.judge import golden


@pytest.mark.parametrize("wire, exact", [
    ("1e+21", 10**21), ("-1e+21", -(10**21)), ("9007199254740992", 2**53), ("9007199254740992.0", 2**53),
    ("1.8446744073709552e+19", 2**64), ("1e300", int(1e300)), ("-0.0", 0), ("1.0", 1),
])
def test_an_integral_double_equals_the_integer_of_its_value(wire, exact):
    answered = json.loads(wire)
    assert golden.same(golden.canonical(answered), golden.canonical(exact))
    assert golden.encoded(golden.canonical({"n": [answered]})) == golden.encoded(golden.canonical({"n": [exact]}))


@pytest.mark.parametrize("wire, exact", [
    ("9007199254740992", 2**53 + 1), ("1e+21", 10**21 + 1), ("1.5", 1), ("true", 1), ("1e+21", "1e+21"),
])
def test_numbers_of_different_values_or_types_differ(wire, exact):
    assert not golden.same(golden.canonical(json.loads(wire)), golden.canonical(exact))


def test_a_golden_integer_past_2_53_passes_an_answer_of_its_double(tmp_path):
    """The whole path a run takes: the golden's compared form, then the answer's."""
    text = golden.render("kit-big-number", "kit.echo", {"value": 10**21, "small": 3})
    (tmp_path / "kit-big-number.yaml").write_text(text)
    stored = golden.read_stored(tmp_path / "kit-big-number.yaml")
    answer = json.loads('{"value": 1e+21, "small": 3.0}')
    assert stored.text == golden.encoded(golden.canonical(answer))


def test_a_compared_form_in_the_cache_is_keyed_by_the_comparing_code(cache, monkeypatch):
    """An entry made by other comparison code (before a change to :func:`golden.canonical`, say)
    is never found: its key holds the source digest of that code."""
    text = golden.render("kit-key", "kit.echo", {"value": 1})
    keys = []
    real_key_of = yamlcache.key_of
    monkeypatch.setattr(yamlcache, "key_of", lambda text: (keys.append(real_key_of(text)) or keys[-1])
                        if text.startswith(golden._STORED) else real_key_of(text))
    golden._stored(text)
    monkeypatch.setattr(golden, "_dumper_identity", lambda: "other comparison code")
    golden._stored(text)
    assert len(keys) == 2 and keys[0] != keys[1]
