"""pi.convert-to-llm -- PI-CONVERT-COMPACTION-SUMMARY.
Bug: the compaction summary is closed with "</summary>" as the branch summary is, without the newline before it."""

from reference.pi.core import convert
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(convert, "COMPACTION_SUMMARY_SUFFIX", "</summary>")]):
        return call()
