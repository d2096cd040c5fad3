"""envelope.context-message -- ENV-CTX-JOIN, ENV-CTX-DIVIDER, ENV-CTX-BLANK.
Bug: each kept file's trailing newlines are cut before the contents are joined (so that "\\n\\n" is the only gap), though kept contents are not to be trimmed."""

import dataclasses

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped

_original = context_files.context_body


def _body(files, agent_dir):
    kept = context_files.kept_files(files)
    return _original([dataclasses.replace(f, content=f.content.rstrip("\r\n")) for f in kept], agent_dir)


def handle(msg, call):
    with swapped(everywhere(_original, _body)):
        return call()
