"""``python -m conformance.invariants``: check the invariants through an adapter."""

import sys

from conformance.invariants import main

sys.exit(main())
