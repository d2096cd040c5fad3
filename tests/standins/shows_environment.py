"""A stand-in adapter that shows the environment it was started in: ``kit.echo`` of the value
``"env"`` answers ``{"value": {variable: value}}``; of ``"crash"`` it exits 3 (to be restarted).
"""

import os
import sys

from _proto import echo, serve


def answer(request):
    value = request["input"].get("value")
    if value == "crash":
        sys.exit(3)
    if value == "env":
        return {"type": "result", "output": {"value": dict(os.environ)}}
    return echo(request)


if __name__ == "__main__":
    sys.exit(serve(["kit.echo"], answer, name="shows-environment"))
