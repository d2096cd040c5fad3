"""A stand-in adapter that hangs: ``kit.echo`` of the value ``"hang"`` never answers.

With ``--always`` it hangs on every request; with ``--deaf`` it stops reading its input after the
handshake; with ``--provides OP`` it lists ``OP`` too (answered as ``kit.echo`` is), so that
``diff`` compares it.
"""

import sys
import time

from _proto import echo, log, provided, serve, started


def answer(request):
    if request["input"].get("value") == "hang" or "--always" in sys.argv:
        log("hangs: sleeping instead of answering")
        time.sleep(3600)
    return echo(request)


if __name__ == "__main__":
    if "--deaf" in sys.argv:
        sys.stdin.buffer.readline()
        started(["kit.echo"], "hangs")
        log("hangs: no longer reading")
        time.sleep(3600)
    sys.exit(serve(["kit.echo", *provided()], answer, name="hangs"))
