"""The conformance kit: scenarios, goldens, adapters, runner and reports.

Version numbers that form the public contract:

- ``SCENARIO_FORMAT``: version of the YAML scenario format (``format:`` key of every file);
- ``PROTOCOL_VERSION``: version of the JSON-lines adapter protocol;
- ``SPEC_VERSION``: version of the clause catalogue under ``conformance/spec``;
- ``SUITE_VERSION``: version of this distribution.
"""

SUITE_VERSION = "0.1.0"
SPEC_VERSION = "1"
PROTOCOL_VERSION = 1
SCENARIO_FORMAT = 1
