"""Counts of fuzz inputs tried, printed in pytest's summary by conftest.py."""

from collections import Counter

COUNTS: Counter[str] = Counter()
