"""Starts a child that outlives it (``sleep 300``, in its own process group: the adapter's),
writes the child's process id to the file named by its first argument, then behaves as
well_behaved.py does, stopping cleanly when asked."""

import os
import runpy
import subprocess
import sys

if __name__ == "__main__":
    child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    with open(sys.argv[1], "w") as out:
        out.write(f"{child.pid}\n")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "well_behaved.py")
    sys.argv = [script]
    runpy.run_path(script, run_name="__main__")
