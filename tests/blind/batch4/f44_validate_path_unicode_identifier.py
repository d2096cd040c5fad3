"""pi.validate-message -- PI-MSG-PROBLEMS.
Bug: a key is written ".key" when it is an identifier by Python's str.isidentifier(), so keys with letters beyond ASCII ("é", "名前") are written .é instead of ["é"]."""

from reference.pi.core import messages
from tests.blind.common import swapped


class _Identifier:
    @staticmethod
    def match(text):
        return text.isidentifier()


def handle(msg, call):
    with swapped([(messages, "_IDENT", _Identifier())]):
        return call()
