"""A stand-in adapter that crashes mid-run: ``kit.echo`` of the value ``"crash"`` exits 3.

With ``--always`` it crashes on every request.
"""

import sys

from _proto import echo, log, serve


def answer(request):
    if request["input"].get("value") == "crash" or "--always" in sys.argv:
        log("crashes: about to fail")
        log("RuntimeError: crashing on purpose")
        sys.exit(3)
    return echo(request)


if __name__ == "__main__":
    sys.exit(serve(["kit.echo"], answer, name="crashes"))
