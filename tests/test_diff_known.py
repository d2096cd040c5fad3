"""Where two answers differ, as ``diff`` matches a disagreement against the recorded divergences
(:mod:`conformance.diff.known`)."""

from __future__ import annotations

from conformance.diff.known import KnownCase, KnownDivergences, signature


def _result(items, **more):
    return ["result", {"items": items, **more}]


def _item(name, hint=None):
    return {"name": name, "hint": hint, "path": f"x/{name}.md"}


def test_one_item_more_is_one_place_not_a_difference_at_every_later_item():
    first = _result([_item("a", "<f>"), _item("t")])
    second = _result([_item(".hidden"), _item("a", "<f>"), _item("t")])
    assert signature((first, second)) == {"$.items.length", "$.items[+]"}
    assert signature((second, first)) == {"$.items.length", "$.items[-]"}


def test_items_between_the_same_matched_ones_are_compared_field_by_field():
    first = _result([_item("a"), _item("b"), _item("c")])
    second = _result([_item("a"), _item("B"), _item("c"), _item("d")])
    assert signature((first, second)) == {"$.items.length", "$.items[*].name", "$.items[*].path",
                                          "$.items[+]"}


def test_lists_of_one_length_are_still_compared_item_by_item():
    first = _result([_item("a"), _item("b")])
    second = _result([_item("b"), _item("a")])
    assert signature((first, second)) == {"$.items[*].name", "$.items[*].path"}


def test_a_recorded_extra_item_explains_an_extra_item_among_other_items():
    recorded_case = signature((_result([_item("t")]), _result([_item(".hidden"), _item("t")])))
    known = KnownDivergences({"pi.load-templates": [KnownCase("c1", ["C"], "r", recorded_case)]})
    found = signature((_result([_item("a", "<f>"), _item("t")]),
                       _result([_item(".hidden"), _item("a", "<f>"), _item("t")])))
    assert [c.id for c in known.explain("pi.load-templates", found)] == ["c1"]
    missing = signature((_result([_item("a"), _item("t")]), _result([_item("t")])))
    assert known.explain("pi.load-templates", missing) == []  # an item less is another divergence
