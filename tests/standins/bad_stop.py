"""A stand-in adapter that answers ``kit.echo`` well but does not stop cleanly.

- ``--garbage``: answers ``stop`` with a banner line instead of ``stopped``;
- ``--exit N``: answers ``stopped``, then exits with code ``N``.
"""

import sys

from _proto import echo, log, send_raw, serve

if __name__ == "__main__":
    if "--garbage" in sys.argv:
        import _proto

        original = _proto.send

        def send(message):
            if message.get("type") == "stopped":
                log("bad-stop: printing a banner instead of stopped")
                send_raw("Goodbye from a chatty adapter!\n")
                return
            original(message)

        _proto.send = send
    code = serve(["kit.echo"], echo, name="bad-stop")
    if "--exit" in sys.argv:
        code = int(sys.argv[sys.argv.index("--exit") + 1])
    sys.exit(code)
