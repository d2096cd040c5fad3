"""A stand-in adapter that answers ``kit.echo`` well but dies on a malformed request (``--no-echo``:
it lists no operation at all, so nothing starts it again after it died)."""

import sys

from _proto import echo, log, serve


def die(message):
    log(f"fragile: cannot handle {message!r}")
    sys.exit(1)


if __name__ == "__main__":
    sys.exit(serve([] if "--no-echo" in sys.argv else ["kit.echo"], echo, name="fragile", on_malformed=die))
