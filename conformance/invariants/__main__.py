"""``python -m conformance.invariants``: check the invariants through an adapter."""

import sys

from conformance.commands.invariants import main

sys.exit(main())
