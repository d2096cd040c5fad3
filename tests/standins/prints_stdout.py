"""An in-process implementation that prints on standard output, served through ``serve_main``.

Its prints (Python-level and straight to file descriptor 1) must land on standard error, never
among the protocol lines.
"""

import os
import sys

from conformance.adapters.base import Implementation
from conformance.adapters.server import serve_main


class Noisy(Implementation):
    name = "noisy"
    version = "1"
    language = "python"

    def operations(self):
        return ["kit.echo"]

    def run(self, op, input, root):
        print("noisy: print() during run")
        os.write(1, b"noisy: raw write to fd 1\n")
        return {"value": input.get("value")}


if __name__ == "__main__":
    sys.exit(serve_main(Noisy()))
