"""envelope.context-message -- ENV-CTX-BLANK, ENV-CTX-NONE.
Bug: a context file is dropped only when its content has length 0; a file of white space only is kept."""

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(context_files._blank, lambda text: text == "")):
        return call()
