"""envelope.context-message -- ENV-CTX-DIVIDER.
Bug: "more than one file" is counted before blank files are dropped, so an agent-directory file
followed only by blank files still gets the project-doc divider, with nothing after it.
"""

from __future__ import annotations

from reference.envelope import context_files

from tests.blind.common import everywhere, swapped


def _context_body(files, agent_dir):
    kept = context_files.kept_files(files)
    if not kept:
        return None
    contents = [f.content for f in kept]
    if len(files) > 1 and context_files.is_global_file(kept[0], agent_dir):
        return contents[0] + context_files.PROJECT_DOC_DIVIDER + "\n\n".join(contents[1:])
    return "\n\n".join(contents)


def handle(msg, call):
    with swapped(everywhere(context_files.context_body, _context_body)):
        return call()
