"""envelope.context-message -- ENV-CTX-DIVIDER.
Bug: the divider is used when any kept file is global, not only the first, so a project file followed by a global one gets "--- project-doc ---" after the first content."""

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped


def _body(files, agent_dir):
    kept = context_files.kept_files(files)
    if not kept:
        return None
    contents = [f.content for f in kept]
    if len(kept) > 1 and any(context_files.is_global_file(f, agent_dir) for f in kept):
        return contents[0] + context_files.PROJECT_DOC_DIVIDER + "\n\n".join(contents[1:])
    return "\n\n".join(contents)


def handle(msg, call):
    with swapped(everywhere(context_files.context_body, _body)):
        return call()
