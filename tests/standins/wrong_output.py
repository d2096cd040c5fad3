"""A stand-in adapter that follows the protocol but answers wrongly.

Default: ``kit.echo`` answers ``"not what was sent"`` whatever the input.
``--unstable``: ``kit.echo`` answers right the first time it sees an input, and differently each
time the same input comes again.
"""

import json
import sys

from _proto import echo, serve

seen = {}


def wrong(request):
    return {"type": "result", "output": {"value": "not what was sent"}}


def unstable(request):
    key = json.dumps(request["input"], sort_keys=True)
    seen[key] = seen.get(key, 0) + 1
    if seen[key] == 1:
        return echo(request)
    return {"type": "result", "output": {"value": [request["input"].get("value"), seen[key]]}}


if __name__ == "__main__":
    sys.exit(serve(["kit.echo"], unstable if "--unstable" in sys.argv else wrong, name="wrong-output"))
