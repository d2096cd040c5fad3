"""A stand-in adapter that crashes mid-run: ``kit.echo`` of the value ``"crash"`` exits 3.

With ``--always`` it crashes on every request; with ``--provides OP`` it lists ``OP`` too
(answered as ``kit.echo`` is), so that ``diff`` compares it.
"""

import sys

from _proto import echo, log, provided, serve


def answer(request):
    if request["input"].get("value") == "crash" or "--always" in sys.argv:
        log("crashes: about to fail")
        log("RuntimeError: crashing on purpose")
        sys.exit(3)
    return echo(request)


if __name__ == "__main__":
    sys.exit(serve(["kit.echo", *provided()], answer, name="crashes"))
