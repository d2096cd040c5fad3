"""A stand-in adapter that answers out of order or with the wrong message for some values.

- ``"skew"``: the answer carries the next ``seq``;
- ``"no-seq"``: the answer has no ``seq``;
- ``"seq-true"``, ``"seq-float"``: the answer's ``seq`` is JSON's ``true`` or a number with a
  fraction (``1.0``), equal to the request's in Python but not an integer;
- ``"wrong-type"``: a ``started`` message instead of an answer;
- ``"unknown-type"``: an answer of a type the protocol does not have;
- ``"no-output"``: a ``result`` without ``output``;
- ``"no-code"``: an ``error`` without ``code``;
- ``"twice"``: two answers to one request (the second is stale for the next request).
"""

import sys

from _proto import echo, send, serve


def answer(request):
    value = request["input"].get("value")
    seq = request["seq"]
    if value == "skew":
        return {"type": "result", "seq": seq + 1, "output": {"value": value}}
    if value == "seq-true":
        return {"type": "result", "seq": True if seq == 1 else seq, "output": {"value": value}}
    if value == "seq-float":
        return {"type": "result", "seq": float(seq), "output": {"value": value}}
    if value == "no-seq":
        send({"type": "result", "output": {"value": value}})
        return None
    if value == "wrong-type":
        return {"type": "started", "protocol": 1, "implementation": {}, "operations": []}
    if value == "unknown-type":
        return {"type": "answer", "output": {"value": value}}
    if value == "no-output":
        return {"type": "result"}
    if value == "no-code":
        return {"type": "error", "message": "refused without a code"}
    if value == "twice":
        send(echo(request) | {"seq": seq})
        return echo(request)
    return echo(request)


if __name__ == "__main__":
    sys.exit(serve(["kit.echo"], answer, name="out-of-order"))
