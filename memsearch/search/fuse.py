"""3. fuse: weighted reciprocal-rank fusion of the lists, times each memory's territory weight."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from memsearch.fusion import FusedList, follow_head_links, lift_replies, max_possible, rrf
from memsearch.models import Chunk, entry_dated, importance_prior, save_dated
from memsearch.query_terms import asks_about_self, asks_for_current
from memsearch.search.state import Asked, Found, Weighed
from memsearch.speakers import (
    ASKING_HEAD,
    ASKING_WEIGHT,
    REPLY_WEIGHT,
    SPEAKER_WEIGHT,
    might_ask,
    transcript_replies,
    transcript_speaker_names,
    transcript_speakers,
)
from memsearch.tokenize import tokenize

#: A question asking when something happened weighs dated entries up by this much.
EVENT_ENTRY_WEIGHT = 1.25


#: A question about the agent's own conduct or self ("how should I talk to Tobi", "am I allowed to
#: make jokes": query_terms.asks_about_self) weighs how close a memory is to the self more: each
#: territory's weight to this power (system 1.2 -> 1.73, covenant 1.3 -> 2.2, reference 1.1 -> 1.33,
#: archive 0.9 -> 0.73). Measured (eval/run.py vault, 2026-12-05) over the 21 such questions of both
#: agent vaults (19 territory, 2 entity chains): at 2, 3, 4 and 6 none falls; at 3 own territory
#: hit@3 0.917 -> 0.958 (tr-19 6th -> 3rd, tr-02 2nd -> 1st), shared te-23 3rd -> 2nd; LoCoMo and
#: SciFact unchanged. "Must I" is left out: both own questions asking it are practical ("how early
#: must I phone to be seen today"), and it put semantic alone's answer to one out of the first three.
SELF_QUESTION_POWER = 3.0


#: Territories of superseded material (DESIGN: the archive holds what was replaced): a question
#: about how things are now weighs them down, one about the past or a date does not.
SUPERSEDED_TERRITORIES = frozenset({"archive"})
SUPERSEDED_WEIGHT = 0.75


#: A question about now: a dated entry among the first REPLACED_HEAD fused passages that a newer
#: one there replaces (the newer says so, :data:`_REPLACES`, in a sentence that names a word of the
#: older beyond the query's and beyond numbers and dates: its subject) weighs REPLACED_WEIGHT.
#: "Which text editor do I use" asks for the 2025 entry that switched from vim to Helix, not the
#: 2023 one that chose vim. Measured (eval/run.py,
#: 2026-12-07): no figure of the four sets moved (it acts on 3 questions of both vaults and moves
#: none of their answers: shared up-13's is the newer entry, first already); the Helix entry 3rd ->
#: 2nd, above the vim one, on a vault of the issue's kind (tests/scenarios/test_issue_questions.py).
#: Two entries of one file too (a ledger's lines): the file's result then points at the newer line,
#: where the agent must open it (no figure of the four sets moved, nor any result of the bench's
#: and both vaults' questions: tests/scenarios/test_ranking.py has such a ledger).
REPLACED_HEAD = 5
REPLACED_WEIGHT = 0.3
#: Where a sentence ends: a full stop, question or exclamation mark before a space, a blank line,
#: or a list item's start (a line of wrapped prose goes on with its sentence).
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t])")
#: A month's or a weekday's name as the keyword index keeps it (stemmed: "septemb"), and a number or
#: a date ("10", "2025-06-10"): no subject ("S3", "B2", "gpt-4" are).
_DATE_TERMS = frozenset(
    tokenize(
        "january february march april may june july august september october november december jan feb"
        " mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday"
        " sunday mon tue tues wed thu thur thurs fri sat sun"
    )
)
_NUMBER = re.compile(r"[\d\-:/.]+")
_REPLACES = re.compile(
    r"\b(?:switched|moved (?:from|to|over)|changed (?:from|to)|migrated|replaced|swapped|gave up"
    r"|given up|no longer|instead of|stopped using|ditched|t(?:akes|ook|aken) over|from now on"
    r"|replaced by|anymore)\b",
    re.IGNORECASE,
)


#: Link propagation (fusion.follow_head_links), on the graph lead's partial match: a passage a link
#: on one of the first LINKED_HEADS fused files reaches gains LINK_WEIGHT x the share of what the
#: query asks beyond its names that the link's anchor adds x that file's score (not the share of the
#: whole query: the hub's title is usually the name, and every link on it would add it alike).
#: Measured (eval/run.py, 2026-12-04): own vault entity_chain hit@3 0.542 -> 0.625 (eight chains
#: climb, none falls; overall 0.831 -> 0.843, MRR@10 0.725 -> 0.736); two own aliases go one place
#: down (2nd -> 3rd, 1st -> 2nd); the shared vault unchanged (0.870). Plateau: LINKED_HEADS 1 to 10
#: alike; LINK_WEIGHT 0.25 gains less, 0.75 and 1 cost a shared territory question. With the share
#: of the whole query, the shared vault's chains climbed too (MRR@10 0.804 -> 0.848) but an own
#: update went down; ungated, it cost the shared vault an alias and a territory question.
LINKED_HEADS = 3
LINK_WEIGHT = 0.5


#: Chunks whose territory weight a loaded index keeps between queries (started again past it).
KEPT_CHUNK_WEIGHTS = 65_536


def fuse(
    asked: Asked, found: Found, weighed: Weighed, event: bool
) -> tuple[FusedList, dict[str, float], float]:
    """The fused ranking, the weights it was fused with (``links`` too when links were followed)
    and the fused score of a chunk every list ranked first, in the weightiest territory."""
    index, settings, lists = asked.index, asked.settings, found.lists
    territory_weights = {t_.label: t_.weight for t_ in settings.territories}
    if asks_about_self(asked.parsed.text):
        territory_weights = {label: w**SELF_QUESTION_POWER for label, w in territory_weights.items()}
        found.notes.append(
            f"a question about the self: territory weights to the power {SELF_QUESTION_POWER:g}"
        )
    current = not event and asked.parsed.window is None and asks_for_current(asked.parsed.text)
    chunks_by_id = index.chunks

    # A chunk's own prior (a notebook moment's importance, 1 for every other chunk) rides on its
    # territory's weight: the one per-chunk factor of the fusion (docs/notebook.md). Kept per chunk
    # until the index changes (a query weighs a few hundred chunks; an agent's next question mostly
    # the same notes), under the territory weights it was read with.
    known: dict[int, float] = index.kept(
        f"territory weights {sorted(territory_weights.items())}", lambda _index: {}
    )
    if len(known) > KEPT_CHUNK_WEIGHTS:
        known.clear()

    def territory_only(cid: int) -> float:
        w = known.get(cid)
        if w is None:
            chunk = chunks_by_id[cid]
            w = known[cid] = territory_weights.get(chunk.territory, 1.0) * importance_prior(chunk)
        return w

    def chunk_weight(cid: int) -> float:
        chunk = chunks_by_id[cid]
        w = territory_only(cid)
        if event and chunk.fact_type == "experience" and entry_dated(chunk):
            w *= EVENT_ENTRY_WEIGHT
        elif current and chunk.territory in SUPERSEDED_TERRITORIES:
            w *= SUPERSEDED_WEIGHT
        return w

    weigh_place = chunk_weight if event or current else territory_only
    # In a transcript, a question naming one of its speakers asks what they said or did: their own
    # turns weigh more (speakers.py; a question naming every speaker weighs all turns alike).
    named: set[str] = set()
    if asked.parsed.entities:
        named = set(asked.parsed.entities) & index.kept("transcript speaker names", transcript_speaker_names)
    speakers = index.kept("transcript speakers", transcript_speakers) if named else {}
    if named:
        speaking = ", ".join(sorted(named))
        found.notes.append(f"transcript turns spoken by {speaking} weighed x{SPEAKER_WEIGHT:g}")

    def weigh_speaker(cid: int) -> float:
        w = weigh_place(cid)
        return w * SPEAKER_WEIGHT if speakers.get(cid) in named else w

    weigh_chunk = weigh_speaker if named else weigh_place
    weights = weighed.weights

    def fused_by(weigh: Callable[[int], float]) -> FusedList:
        return rrf(
            lists,
            k=settings.rrf_k,
            weights=weights,
            territory_weight=weigh,
            tie_key=asked.chunk_order,
            strength_mix=settings.strength_mix,
        )

    fused = fused_by(weigh_chunk)
    if current and (replaced := replaced_entries(fused.chunk_ids(REPLACED_HEAD), chunks_by_id, asked)):
        weigh_current = weigh_chunk

        def weigh_chunk(cid: int) -> float:
            return weigh_current(cid) * (REPLACED_WEIGHT if cid in replaced else 1.0)

        fused = fused_by(weigh_chunk)
        by = ", ".join(f"{located(chunks_by_id[old])} (by {newer})" for old, newer in replaced.items())
        found.notes.append(f"entries a newer one replaces weighed x{REPLACED_WEIGHT:g}: {by}")
    # The same partial match: the notes the first results link to for what the query asks climb
    # towards them (the component's note names the technique that answers).
    if weighed.partial and found.anchors and "graph" in lists:
        fused = follow_head_links(
            fused,
            {target: (a.path, a.asked_share) for target, a in found.anchors.items()},
            lambda cid: chunks_by_id[cid].path,
            weigh_chunk,
            heads=LINKED_HEADS,
            weight=LINK_WEIGHT,
            tie_key=asked.chunk_order,
        )
        weights = {**weights, "links": LINK_WEIGHT}
    # In a transcript, a query worded like a question asked there matches the asking turn, while the
    # answer is the reply (an adjacency pair): the asking turn weighs less and its reply is raised by
    # it (speakers.py), among the first fused passages. The transcripts' turns are read once one of
    # them looks like such a turn.
    replies = index.kept_if_current("transcript replies")
    if replies is None and any(might_ask(chunks_by_id[cid].text) for cid in fused.chunk_ids(ASKING_HEAD)):
        replies = index.kept("transcript replies", transcript_replies)
    if replies:
        fused = lift_replies(
            fused,
            replies,
            weigh_chunk,
            weight=REPLY_WEIGHT,
            asking=ASKING_WEIGHT,
            head=ASKING_HEAD,
            tie_key=asked.chunk_order,
        )
        weights = {**weights, "replies": REPLY_WEIGHT}
    # The ceiling counts every strategy that ran, with its base weight, even one that found nothing:
    # a query only one list answers, or answers weakly, shows as a low score, a thin signal.
    ceiling = max_possible(
        weighed.base, list(lists), settings.rrf_k, max(territory_weights.values(), default=1.0)
    )
    return fused, weights, ceiling


def replaced_entries(head: list[int], chunks_by_id: Mapping[int, Chunk], asked: Asked) -> dict[int, str]:
    """Of the dated entries and edited notes among ``head`` (chunk ids, best first), those a newer
    entry of them replaces: {older chunk id: where the newer one is, ``path:line``}. The newer says
    it replaced something (:data:`_REPLACES`) in a sentence naming a word of the older beyond the
    query's words (:func:`_subject_words`); the two may be entries of one file (a ledger's lines).
    Measured (eval/run.py, 2026-12-07): notes by their edit date, with "takes over", "from now on",
    "replaced by", "anymore": the workshop vault's hit@3 0.871 -> 0.887 (up-07, whose wording was
    read to write these), every other set the same; notes only saved taken as undated and older
    cost the theatre vault a territory question (its identity note under a journal's "no longer")."""
    entries = [
        (cid, chunk, chunk.timestamp)
        for cid in head
        if entry_dated(chunk := chunks_by_id[cid]) and chunk.timestamp is not None
    ]
    replacing = [(entry, said) for entry in entries if (said := _replacing(entry[1].text))]
    if not replacing:  # most questions about now: no entry of the head says it replaced anything
        return {}
    asked_terms = set(tokenize(asked.parsed.text))
    # A note (not an entry) says how things stood as of its last edit ("updated: 2023-06-01"); one
    # only saved, or undated, says nothing of when (an identity note is no older fact).
    notes = [
        (cid, chunk, chunk.timestamp)
        for cid in head
        if not entry_dated(chunk := chunks_by_id[cid])
        and chunk.timestamp is not None
        and not save_dated(chunk)
    ]
    olders = entries + notes
    words = {cid: _subject_words(chunk.text) - asked_terms for cid, chunk, _ in olders}
    replaced: dict[int, str] = {}
    for (_newer_id, newer, newer_at), said in replacing:
        # What it replaced is what the sentence saying so names: "Switched from vim to Helix", not
        # the rest of the day's entry.
        subject = _subject_words(said) - asked_terms
        for older_id, _older, older_at in olders:
            if older_at < newer_at and words[older_id] & subject:  # older, on the same subject
                replaced.setdefault(older_id, located(newer))
    return replaced


def _replacing(text: str) -> str:
    """The sentences of ``text`` that say something was replaced (:data:`_REPLACES`), joined, without
    the words that say so ("switched from vim to Helix": "from vim to Helix")."""
    return " ".join(
        _REPLACES.sub(" ", sentence) for sentence in _SENTENCE.split(text) if _REPLACES.search(sentence)
    )


def _subject_words(text: str) -> set[str]:
    """The words of ``text`` that can name a subject: not numbers or dates (an entry headed
    "2025-06-10 Tuesday" shares "10" and "tuesday" with every tenth and every Tuesday)."""
    return {word for word in tokenize(text) if word not in _DATE_TERMS and not _NUMBER.fullmatch(word)}


def located(chunk: Chunk) -> str:
    """Where a chunk is, as a note says it: ``path:line``."""
    return f"{chunk.path}:{chunk.start_line}"
