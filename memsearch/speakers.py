"""Who speaks each turn of a transcript: a conversation kept as one paragraph a turn ("Caroline: ...").

A question that names one of a transcript's speakers is asked about what they said or did, yet
their name is no keyword evidence: each turn is read with its neighbours (two each side), so
every turn holds both speakers' names (on LoCoMo, a BM25 idf of 0.001), and the graph finds the
speaker in nearly every chunk. The speaker label is the turn's author field; the search weighs
the named speaker's own turns up by it (``memsearch.search``, :data:`SPEAKER_WEIGHT`).

A file is a transcript when at least :data:`TRANSCRIPT_SHARE` of its passages open with the name
of a known entity and a colon, by two speakers or more who each speak at least twice: a journal's
"Kettle: descaled" or "Recheck: Friday" opens one passage, not a conversation.

A turn that ends asking and the next turn, another speaker's, are a question and its answer (an
adjacency pair, :func:`transcript_replies`): a query worded like the question matches the asking
turn, and the search hands part of its score to the reply (:data:`REPLY_WEIGHT`).
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

from memsearch.index.in_memory import IndexData

#: A passage that opens (past its heading and blank lines) with a speaker's name and a colon: a
#: turn of a transcript.
TURN_OPENING = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\n)*([A-Z][\w'.-]*(?: [A-Z][\w'.-]*){0,2}): \S")
#: How much of a passage's start is read for its opening.
OPENING_CHARS = 400
#: The share of a file's passages that must be turns of its speakers for it to be a transcript.
TRANSCRIPT_SHARE = 0.75
#: A transcript turn spoken by an entity the query names weighs this much more in the fusion, as
#: a dated entry does for a question asking when (search.fuse.EVENT_ENTRY_WEIGHT). On LoCoMo, 96% of
#: the evidence turns of a question naming one speaker are that speaker's, against 59% of the
#: fused top 10. Measured (eval/run.py locomo, 2026-12-04), categories 1-4 any@10 / category 5
#: (adversarial: the question names the other speaker) / all 1,982 questions: 0.822 / 0.874 / 0.834
#: without; 0.836 / 0.839 / 0.837 at 1.25; 0.840 / 0.796 / 0.830 at 1.5; 0.842 / 0.673 / 0.804 at 2.
#: 1.25 is the weight that raises all of them together: the other speaker's turn is what lets an
#: agent say "that was Caroline, not Melanie".
SPEAKER_WEIGHT = 1.25


def transcript_speakers(index: IndexData) -> dict[int, str]:
    """The speaker (an entity key) of each passage of the index's transcripts, by chunk id. One pass
    over the chunks each time the index changes (~0.1 s at 100k chunks), on the first query that
    names an entity."""
    graph = index.graph
    by_path: dict[str, list[tuple[int, str | None]]] = {}
    for chunk_id, chunk in index.chunks.items():
        speaker = None
        if label := TURN_OPENING.match(chunk.text, 0, OPENING_CHARS):
            key = graph.resolve(label.group(1))
            speaker = key if graph.known(key) else None
        by_path.setdefault(chunk.path, []).append((chunk_id, speaker))
    speakers: dict[int, str] = {}
    for turns in by_path.values():
        counts = Counter(s for _, s in turns if s is not None)
        spoken = [(chunk_id, s) for chunk_id, s in turns if s is not None and counts[s] >= 2]
        if len(spoken) >= TRANSCRIPT_SHARE * len(turns) and len({s for _, s in spoken}) >= 2:
            speakers.update(spoken)
    return speakers


#: What a transcript turn that ends with a question hands its reply (the next turn, by another
#: speaker): the reply gains this share of the question's fused score (fusion.lift_replies); and what
#: the asking turn itself weighs in the fusion. On LoCoMo a turn ending with "?" is 25% of all turns
#: but 12% of the evidence turns: a question asks for what its reply tells, and a query worded like
#: it matches the asking turn. Measured (eval/run.py locomo, 2026-12-04), categories 1-4 any@10 /
#: any@300w / category 5 any@10: 0.836 / 0.844 / 0.839 without; 0.854 / 0.854 / 0.881 with the
#: reply's gain alone (0.25); 0.844 / 0.846 / 0.857 with the asking weight alone (0.8); 0.856 / 0.857
#: / 0.906 with both; every one of the ten conversations gains or holds. Plateau: gain 0.2-0.4,
#: asking weight 0.8-0.9 alike; lifting the next turn of every turn, not only a question's, cost
#: 0.6 points (0.830), and of every turn that does not ask, 2.4. SciFact nDCG@10 0.7256 and both
#: agent vaults (hit@3 0.855 own, 0.870 shared) unchanged: they hold no transcripts.
REPLY_WEIGHT = 0.25
ASKING_WEIGHT = 0.8
#: The question turns among a query's first ASKING_HEAD fused passages hand their replies a share:
#: the transcripts' replies are read (a pass over every chunk) once one of them looks like a turn
#: that asks, and a query's answer does not depend on whether an earlier one read them.
ASKING_HEAD = 30

#: A turn that ends asking (past a trailing bracketed aside: an attachment, a stage direction).
_ASKS = re.compile(r"[?？]\s*(?:[\[(][^\])\n]*[\])]\s*)?$")


#: How much of a passage's end is read for its question mark.
CLOSING_CHARS = 200


def asks(text: str) -> bool:
    """Whether a turn ends with a question."""
    return _ASKS.search(text[-CLOSING_CHARS:].rstrip()) is not None


def transcript_speaker_names(index: IndexData) -> frozenset[str]:
    """Every speaker of the index's transcripts (entity keys), kept beside :func:`transcript_speakers`:
    a query naming entities asks which of them speak, and the set of the speakers of 7,730 turns,
    made anew for each, took 0.08 ms at 100k chunks (eval/bench.py's vault)."""
    return frozenset(index.kept("transcript speakers", transcript_speakers).values())


def might_ask(text: str) -> bool:
    """Whether a passage may be a transcript turn that asks: it ends with a question and opens
    with a name and a colon (cheap, read of a query's fused passages before any transcript is)."""
    end = text[-CLOSING_CHARS:].rstrip()[-1:]  # not a copy of the whole passage: a query reads hundreds
    return end in "?？])" and asks(text) and TURN_OPENING.match(text, 0, OPENING_CHARS) is not None


def transcript_replies(index: IndexData) -> dict[int, int]:
    """Each transcript turn that ends with a question, by chunk id, to the turn that answers it:
    the passage right after it in its file, a turn of another speaker (an adjacency pair). One
    pass over the chunks each time the index changes, after :func:`transcript_speakers`."""
    speakers = index.kept("transcript speakers", transcript_speakers)
    if not speakers:
        return {}
    chunks = index.chunks
    paths = {chunks[chunk_id].path for chunk_id in speakers}
    by_path: dict[str, list[tuple[int, int]]] = {path: [] for path in paths}
    for chunk_id, chunk in chunks.items():
        if chunk.path in by_path:
            by_path[chunk.path].append((chunk.start_line, chunk_id))
    replies: dict[int, int] = {}
    for passages in by_path.values():
        passages.sort()
        for (_, asking), (_, answering) in pairwise(passages):
            speaker, replier = speakers.get(asking), speakers.get(answering)
            if None not in (speaker, replier) and speaker != replier and asks(chunks[asking].text):
                replies[asking] = answering
    return replies
