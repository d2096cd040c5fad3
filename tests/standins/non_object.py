"""A stand-in adapter whose ``kit.echo`` result has an ``output`` that is not an object: the JSON
value given as the first argument, ``null`` when none."""

import json
import sys

from _proto import serve

VALUE = json.loads(sys.argv[1]) if len(sys.argv) > 1 else None

if __name__ == "__main__":
    sys.exit(serve(["kit.echo"], lambda request: {"type": "result", "output": VALUE}, name="non-object"))
