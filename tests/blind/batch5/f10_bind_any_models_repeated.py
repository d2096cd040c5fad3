"""profiles.picker -- PROF-PICKER-BIND.
Bug: for the provider "*" the model choices are every model of every provider, not made distinct, so an id two providers share is offered twice."""

from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped

_orig = picker.bind_model_choices


def _choices(models, provider):
    if provider != picker.ANY:
        return _orig(models, provider)
    ids = sorted((m.id for m in models), key=lambda t: (t.lower(), t))
    return [picker.Choice(f"{provider}/{picker.ANY}", provider, picker.ANY)] + [
        picker.Choice(f"{provider}/{i}", provider, i) for i in ids]


def handle(msg, call):
    with swapped(everywhere(picker.bind_model_choices, _choices)):
        return call()
