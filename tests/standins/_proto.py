"""What the stand-in adapters share: reading requests and writing messages of the protocol.

The stand-ins deliberately implement the protocol by hand (not through ``conformance``), so that
the kit's client is tested against independent code.
"""

import json
import sys


def send(message):
    """Write one protocol line and flush it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def send_raw(text):
    """Write ``text`` as it is on standard output and flush it."""
    sys.stdout.write(text)
    sys.stdout.flush()


def log(text):
    """A line on standard error."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def requests():
    """Each line of standard input as a decoded object, or ``None`` when it is not one."""
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:
            yield None
            continue
        yield message if isinstance(message, dict) else None


def started(operations, name="standin"):
    """The ``started`` message of a stand-in that provides ``operations``."""
    send(
        {
            "type": "started",
            "protocol": 1,
            "implementation": {"name": name, "version": "0.0.1", "language": "python"},
            "operations": list(operations),
        }
    )


def serve(operations, answer, *, name="standin", on_malformed=None):
    """A plain protocol loop: handshake, then ``answer(request)`` for each ``run``.

    ``answer`` returns the reply (``seq`` is added when missing) or ``None`` to write nothing.
    Malformed lines get a ``protocol-error`` unless ``on_malformed`` handles them.
    """
    for message in requests():
        kind = message.get("type") if message is not None else None
        if kind == "start":
            started(operations, name)
        elif kind == "run" and isinstance(message.get("seq"), int) and isinstance(message.get("op"), str):
            reply = answer(message)
            if reply is not None:
                reply.setdefault("seq", message["seq"])
                send(reply)
        elif kind == "stop":
            send({"type": "stopped"})
            return 0
        elif on_malformed is not None:
            on_malformed(message)
        else:
            seq = message.get("seq") if isinstance(message, dict) else None
            send({"type": "protocol-error", "seq": seq if isinstance(seq, int) else None,
                  "message": "malformed request"})
    return 0


def provided():
    """The operations named by ``--provides OP`` options of the command line, besides ``kit.echo``."""
    return [sys.argv[i + 1] for i, arg in enumerate(sys.argv[:-1]) if arg == "--provides"]


def echo(request):
    """The ``kit.echo`` answer."""
    return {"type": "result", "output": {"value": request["input"].get("value")}}
