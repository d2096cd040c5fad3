"""profiles.picker -- PROF-PICKER-PROVIDERS, PROF-PICKER-MODELS.
Bug: provider and model names are sorted with a plain sort() (code point order), so "Mistral" comes before "anthropic"."""

from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(picker._key, lambda text: (text, text))):
        return call()
