"""envelope.context-message -- ENV-CTX-DIVIDER, ENV-CTX-BLANK.
Bug: "more than one file" is counted before blank files are dropped, so a global file followed only by blank project files gets the project-doc divider with nothing after it."""

from reference.envelope import context_files as cf
from tests.blind.common import swapped


def context_body(files, agent_dir):
    kept = cf.kept_files(files)
    if not kept:
        return None
    contents = [f.content for f in kept]
    if len(list(files)) > 1 and cf.is_global_file(kept[0], agent_dir):
        return contents[0] + cf.PROJECT_DOC_DIVIDER + "\n\n".join(contents[1:])
    return "\n\n".join(contents)


def handle(msg, call):
    with swapped([(cf, "context_body", context_body)]):
        return call()
