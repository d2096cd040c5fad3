"""Hangs on every request, and on ``SIGTERM`` takes a second to clean up (as an adapter removing
its sandbox, or a measured process saving its data, does) before it writes the file named by its
first argument and exits."""

import signal
import sys
import time

from _proto import log, serve


def cleaned(signum, frame):
    time.sleep(1.0)
    with open(sys.argv[1], "w") as out:
        out.write("cleaned\n")
    sys.exit(0)


def answer(request):
    log("slow-cleanup: sleeping instead of answering")
    time.sleep(3600)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, cleaned)
    sys.exit(serve(["kit.echo"], answer, name="slow-cleanup"))
