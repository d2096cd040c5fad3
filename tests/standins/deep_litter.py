"""A stand-in adapter that answers ``unsupported`` to the operations named by ``--provides OP``
(``kit.echo`` it answers correctly) and, before each answer, leaves litter
the kit must clean up: in the case's tree (when it has one) and in its own ``$TMPDIR`` (the kit's
scratch folder), a chain of folders deeper than Python's recursion and the system's path length
allow, the deepest of them with no permissions at all and one above it read-only.

``--depth N`` sets the depth (default 1500)."""

import os
import sys

from _proto import echo, provided, serve

DEPTH = int(sys.argv[sys.argv.index("--depth") + 1]) if "--depth" in sys.argv else 1500


def litter(folder):
    """Make the deep chain ``folder/deep/d/d/...`` (by folder descriptors: no path is that long)."""
    fd = os.open(folder, os.O_RDONLY)
    os.mkdir("deep", dir_fd=fd)
    names = ["deep"] + ["d"] * DEPTH
    for i, name in enumerate(names):
        if i:
            os.mkdir(name, dir_fd=fd)
        with open(os.open("f", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd), "w") as out:
            out.write("x")
        child = os.open(name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
        if i == DEPTH // 2:
            os.fchmod(fd, 0o500)
    os.fchmod(fd, 0o000)
    os.close(fd)


def answer(request):
    if request.get("root"):
        litter(request["root"])
    litter(os.environ["TMPDIR"])
    return echo(request) if request["op"] == "kit.echo" else {"type": "unsupported", "reason": "litter only"}


if __name__ == "__main__":
    sys.exit(serve(["kit.echo", *provided()], answer, name="deep-litter"))
