"""Standing interests: when a newly indexed memory matches something the agent is waiting for, say so.

A vault declares standing queries (open desires, commitments, topics being waited on) in its
``memsearch.toml``::

    [[interest]]
    name = "ed-verdict"                       # default: the query
    query = "did Ed approve the new signing key"
    threshold = 0.5                           # 0..1, see Scorer (default 0.5)
    urgency = "high"                          # low | normal | high | critical, or a number 0..1
    territory = "journal/"                    # optional filters, as memory_search takes them
    fact_type = "experience"

    [signals]
    inbox = "~/agent/inbox.jsonl"             # default: <index home>/signals.jsonl
    interests_file = "system/interests.md"    # the default; "" turns the file off

or in a markdown file the agent itself can write, ``system/interests.md`` by default: every ``##``
section is an interest named by its heading, configured by ``key: value`` lines (``query``,
``threshold``, ``urgency``, ``territory``, ``fact_type``); without a ``query:`` line the heading is the
query. Other lines are free notes. The file's own chunks never trigger a signal.

After every index run, :func:`after_index` compares the chunks with those the last run saw (by
content hash, in ``<index home>/signals/state.json``) and scores each new or changed chunk against each
interest directly (:class:`Scorer`: meaning above the query's noise floor, and idf-weighted wording, on
an absolute 0..1 scale; a memory_search score is relative to the vault's best hit, so it cannot say
"this is about what I wait for"). A chunk at or above the threshold is a match. One event per interest
and file per run (the best chunk), appended as one JSON line to the inbox and passed to every callback
from :func:`subscribe`::

    {"sensor_name": "memory_search", "event_type": "desire_triggered", "target": "journal/x.md",
     "urgency": "high", "timestamp": "...", "payload": {"matched": "ed-verdict", "score": 0.66,
     "lines": [12, 18], "ref": "journal/x.md:12-18", "query": "...", "threshold": 0.5, ...}}

A match fires once: (interest, chunk content hash) pairs are remembered, so a reindex with no change,
or a change elsewhere, fires nothing. The first run with no state records what the vault holds and
fires nothing (a baseline, not a flood); a newly declared interest watches what is written after it.
When meaning cannot be scored (the embedder is down, or chunks await their vector), those chunks are not
marked seen: the next run scores them again, in full (a pair that fired never fires twice). Nothing
here can fail an index.
"""

from memsearch.signals.check import (
    EVENT_TYPE,
    SENSOR_NAME,
    SignalCallback,
    SignalReport,
    after_index,
    check_new_memories,
    describe,
    subscribe,
)
from memsearch.signals.interests import (
    DEFAULT_INTERESTS_FILE,
    DEFAULT_THRESHOLD,
    DEFAULT_URGENCY,
    URGENCIES,
    Interest,
    SignalConfig,
    load_signal_config,
    parse_interests_markdown,
)
from memsearch.signals.scorer import Match, Scorer, query_embedder
from memsearch.signals.state import STATE_FORMAT, append_events, load_state, purge, save_state, state_path

__all__ = [
    "DEFAULT_INTERESTS_FILE",
    "DEFAULT_THRESHOLD",
    "DEFAULT_URGENCY",
    "EVENT_TYPE",
    "SENSOR_NAME",
    "STATE_FORMAT",
    "URGENCIES",
    "Interest",
    "Match",
    "Scorer",
    "SignalCallback",
    "SignalConfig",
    "SignalReport",
    "after_index",
    "append_events",
    "check_new_memories",
    "describe",
    "load_signal_config",
    "load_state",
    "parse_interests_markdown",
    "purge",
    "query_embedder",
    "save_state",
    "state_path",
    "subscribe",
]
