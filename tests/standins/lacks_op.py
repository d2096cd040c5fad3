"""A stand-in adapter that provides ``test.other`` only (no ``kit.echo``).

Any ``run`` it does receive is answered with ``{"sent": true}``, so a test can tell that an
operation it did not list was nevertheless sent.
"""

import sys

from _proto import serve


def answer(request):
    return {"type": "result", "output": {"sent": True, "op": request["op"]}}


if __name__ == "__main__":
    sys.exit(serve(["test.other"], answer, name="lacks-op"))
