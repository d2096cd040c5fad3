"""Hostile Python implementations of ``kit.echo`` for ``--adapter python:hostile_state:CLASS``
(this folder on ``PYTHONPATH``): each changes what the kit's own code relies on in the process,
answers data that runs its own code, or raises text without bound."""

import os, sys, tempfile, shutil
from conformance.adapters.base import Implementation, ImplementationError
class E(Implementation):
    name="h"; version="1"
    def operations(self): return ["kit.echo"]
    def run(self, op, input, root):
        if input.get("value") == "refuse": raise ImplementationError("value-refused", "refused")
        return {"value": input.get("value")}
class RemovesCwd(E):
    def run(self, op, input, root):
        d = tempfile.mkdtemp(); os.chdir(d); os.rmdir(d); return super().run(op, input, root)
class ClosesStdout(E):
    def run(self, op, input, root):
        os.close(1); return super().run(op, input, root)
class NoneStdout(E):
    def run(self, op, input, root):
        sys.stdout = None; return super().run(op, input, root)
class HugeMessage(E):
    def run(self, op, input, root):
        raise ImplementationError("x"*10_000_000, "m"*50_000_000)
class HugeCrash(E):
    def run(self, op, input, root):
        raise RuntimeError("boom " * 10_000_000)
class BadDict(dict):
    def items(self): raise RuntimeError("items bomb")
    def keys(self): raise RuntimeError("keys bomb")
    def __iter__(self): raise RuntimeError("iter bomb")
class HostileDict(E):
    def run(self, op, input, root):
        return BadDict(value=1)
class NonJson(E):
    def run(self, op, input, root):
        return {"value": {1, 2}}
class NanOut(E):
    def run(self, op, input, root):
        return {"value": float("nan")}
class BytesOut(E):
    def run(self, op, input, root):
        return {"value": b"\xff"}
class RecLimit(E):
    def run(self, op, input, root):
        sys.setrecursionlimit(60); return super().run(op, input, root)
class NotADict(E):
    def run(self, op, input, root):
        return ["value"]
class NonStrKey(E):
    def run(self, op, input, root):
        return {1: "x", "value": 1}
class ManyItems(E):
    def run(self, op, input, root):
        return {"value": list(range(3_000_000))}
class SurrogateName(E):
    name = "h\ud800"
    version = "\x1b[31m" * 1000
class RaisesExit(E):
    def operations(self): raise SystemExit(0)
class ExitOnImport: pass
class StrSub(str): 
    def __eq__(self, o): raise RuntimeError("eq bomb")
    __hash__ = str.__hash__
class HostileStr(E):
    def run(self, op, input, root):
        return {"value": StrSub("one\ntwo\n")}
class BadStrExc(Exception):
    def __str__(self): raise RuntimeError("str bomb")
class HostileException(E):
    def run(self, op, input, root):
        raise BadStrExc()
