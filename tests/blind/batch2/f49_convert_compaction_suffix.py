"""pi.convert-to-llm -- PI-CONVERT-COMPACTION-SUMMARY.
Bug: the compaction summary is closed like the branch summary, with "</summary>" right after the summary instead of "\n</summary>"."""

from reference.pi.core import convert
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(convert, "COMPACTION_SUMMARY_SUFFIX", "</summary>")]):
        return call()
