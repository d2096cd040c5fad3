"""A stand-in adapter that behaves well and gives every kind of answer.

- ``kit.echo``: the input value back;
- ``test.refuse``: a spec error with code ``test-refused``;
- ``test.unsupported`` / ``test.skip``: ``unsupported`` / ``skipped`` with a reason;
- ``test.errored``: the ``errored`` answer of an implementation that failed;
- ``test.root``: the ``root`` it was given;
- ``test.noisy``: writes ``input.bytes`` bytes to standard error, then answers.
"""

import sys

from _proto import echo, log, serve

OPERATIONS = ["kit.echo", "test.refuse", "test.unsupported", "test.skip", "test.errored",
              "test.root", "test.noisy"]


def answer(request):
    op = request["op"]
    log(f"well-behaved: {op} seq {request['seq']}")
    if op == "kit.echo":
        return echo(request)
    if op == "test.refuse":
        return {"type": "error", "code": "test-refused", "message": "refused on purpose"}
    if op == "test.unsupported":
        return {"type": "unsupported", "reason": "not provided here"}
    if op == "test.skip":
        return {"type": "skipped", "reason": "skipped on purpose"}
    if op == "test.errored":
        log("Traceback: something broke inside")
        return {"type": "errored", "message": "internal failure"}
    if op == "test.root":
        return {"type": "result", "output": {"root": request.get("root")}}
    if op == "test.noisy":
        size = request["input"]["bytes"]
        sys.stderr.write("n" * (size - 5) + "tail\n")
        sys.stderr.flush()
        return {"type": "result", "output": {"wrote": size}}
    return {"type": "unsupported", "reason": f"unknown {op}"}


if __name__ == "__main__":
    sys.exit(serve(OPERATIONS, answer, name="well-behaved"))
