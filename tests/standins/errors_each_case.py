"""A stand-in adapter that writes ``during seq N`` on standard error for each request, then answers
it ``errored`` (and keeps running), or with the output ``null`` (a malformed answer: the kit
restarts it) when given ``--malformed``."""

import sys

from _proto import log, serve


def answer(request):
    log(f"during seq {request['seq']}")
    if "--malformed" in sys.argv:
        return {"type": "result", "output": None}
    return {"type": "errored", "message": "failed on purpose"}


if __name__ == "__main__":
    sys.exit(serve(["kit.echo"], answer, name="errors-each-case"))
