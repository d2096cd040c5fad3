"""A stand-in adapter that prints garbage on standard output for some ``kit.echo`` values.

- ``"garbage"``: a line of plain text instead of the answer;
- ``"array"``: a JSON array instead of an object;
- ``"nan"``: an answer carrying ``NaN``, which is not JSON;
- ``"latin1"``: a line that is not UTF-8;
- ``"partial"``: half an answer without its newline, then an exit;
- ``"unended"``: the whole answer without its newline, the output left open;
- ``"twice"``: an answer whose output names the key ``value`` twice.
"""

import sys

from _proto import echo, log, send_raw, serve


def answer(request):
    value = request["input"].get("value")
    if value == "garbage":
        log("garbage: printing a banner on stdout")
        send_raw("Hello from a chatty adapter!\n")
        return None
    if value == "array":
        send_raw("[1, 2, 3]\n")
        return None
    if value == "nan":
        send_raw('{"type": "result", "seq": %d, "output": {"value": NaN}}\n' % request["seq"])
        return None
    if value == "latin1":
        sys.stdout.flush()
        sys.stdout.buffer.write(b'{"type": "result", "seq": 1, "output": {"value": "caf\xe9"}}\n')
        sys.stdout.buffer.flush()
        return None
    if value == "twice":
        send_raw('{"type": "result", "seq": %d, "output": {"value": 1, "value": 2}}\n' % request["seq"])
        return None
    if value == "unended":
        send_raw('{"type": "result", "seq": %d, "output": {"value": "unended"}}' % request["seq"])
        return None
    if value == "partial":
        send_raw('{"type": "result", "se')
        sys.exit(0)
    return echo(request)


if __name__ == "__main__":
    sys.exit(serve(["kit.echo"], answer, name="garbage"))
