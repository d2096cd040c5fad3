"""Writes its process id to the file named by its first argument, then runs the stand-in named by
the second with the remaining arguments (in the same process), for tests that check what is left
running or on disk."""

import os
import runpy
import sys

if __name__ == "__main__":
    with open(sys.argv[1], "w") as out:
        out.write(f"{os.getpid()} {os.environ.get('HOME', '')}\n")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), sys.argv[2])
    sys.argv = [script, *sys.argv[3:]]
    runpy.run_path(script, run_name="__main__")
