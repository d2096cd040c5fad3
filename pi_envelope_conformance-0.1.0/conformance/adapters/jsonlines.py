"""``python -m conformance.adapters.jsonlines [MODULE:CLASS]``: the name PROTOCOL.md first gave to
:mod:`conformance.adapters.server`'s command line, kept so that adapters launched by it still
start. Nothing else lives here: the protocol is in :mod:`conformance.adapters.protocol`, the client
in :mod:`conformance.adapters.client`, the server in :mod:`conformance.adapters.server`."""

import sys

from conformance.adapters.server import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog="python -m conformance.adapters.jsonlines"))
