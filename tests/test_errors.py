"""conformance.errors.validation_problem: what an output, an input or a suite file got wrong, in the
kit's words, never the name of one of its model classes."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from conformance.errors import validation_problem
from conformance.operations import catalogue


def _class_names(model) -> set[str]:
    """The names of ``model`` and of every model its JSON schema defines."""
    return {model.__name__, *model.model_json_schema().get("$defs", {})}


def _wrong_values(model) -> list:
    """Values of the wrong shape at the top and in each field of ``model``."""
    fields = list(model.model_fields)
    return [None, [1], "text", {name: 7 for name in fields}, {name: [7] for name in fields},
            {name: "x" for name in fields}, {name: {"a": 1} for name in fields}]


@pytest.mark.parametrize("name", sorted(catalogue()))
def test_no_problem_with_an_operations_output_or_input_names_a_class(name):
    operation = catalogue()[name]
    for model in (operation.output, operation.input):
        names = _class_names(model)
        for value in _wrong_values(model):
            try:
                model.model_validate(value)
            except ValidationError as exc:
                for error in exc.errors():
                    said = validation_problem(error)
                    assert not any(n in said for n in names), (name, value, said)
                    assert "Input should" not in said and "instance of" not in said, said


def test_the_common_problems_read_plainly():
    assert validation_problem({"type": "missing", "msg": "Field required"}) == "required field is missing"
    assert validation_problem({"type": "extra_forbidden", "msg": "Extra inputs are not permitted"}) == "unknown field"
    assert validation_problem({"type": "model_type", "msg": "Input should be a valid dictionary or instance of X"}) \
        == "must be an object"
    assert validation_problem({"type": "literal_error", "msg": "Input should be 'a' or 'b'"}) == "must be 'a' or 'b'"
    assert validation_problem({"type": "value_error", "msg": "Value error, no such thing"}) == "no such thing"
