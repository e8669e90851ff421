"""Whether anything resonates: the signal every response carries (``strong``, ``thin``, ``none``).

The tool's promise: "No results: nothing resonates. Low scores: the signal is thin." A fused score
cannot keep it by itself (RRF ranks whatever it is given: a query about a kayak the vault never
mentions still has a best chunk), so the signal is read from evidence that does not depend on one
vault's score scale:

- **missing share**: of the query's informative weight (each content term's idf, question-form
  words at a tenth), the share in words the vault never uses. A question about what is not there
  names it, and that name is usually its rarest word.
- **semantic standout**: how many standard deviations the best passage's cosine stands above the
  query's cosine to the vault at large (a fixed sample of its vectors). A paraphrase shares no
  word with its answer, but its answer stands out in meaning; a topical near-miss does not.
- **window**: dated entries inside the time window the query names.
- **identifiers**: the codes the query writes ("PO-7781", "sign_ed25519()"), held whole by the vault
  or not. A code names one thing: the vault holding it says where the memory is, whatever share of
  the question's other words it lacks.

``strong``: the vault holds most of what the query asks, or every identifier it writes, or a
passage stands out in meaning, or the query's window holds entries. ``none``: not one informative
word of the query is in the vault (or the query has none: "the", "?!?") and nothing is close in
meaning, or nothing matched at all;
such a response carries no results unless they are asked for. ``thin`` otherwise: results are
shown, and their weakness is said. (A vault of a dozen passages cannot show a standout at all:
there, a query none of whose words it uses is ``thin``, not ``none``. Nor is it ``none`` when the
embedder reads many languages and the passage nearest in meaning is in another script than the
query: its words are missing in that language only.)
"""

from __future__ import annotations

import math

from memsearch.models import Evidence, Signal

STRONG, THIN, NONE = "strong", "thin", "none"
LEVELS = (STRONG, THIN, NONE)

#: Under this share of its information in unknown words, the vault holds what the query asks.
MISSING_SHARE_THIN = 0.25
#: A best passage this many standard deviations above the background stands out in meaning.
STANDOUT_Z = 5.0
#: Below this, the best passage is no closer than the vault's usual neighbours of a query.
NEAR_Z = 3.5
#: "Every informative word is unknown", with room for float rounding.
ALL_MISSING = 0.999


def can_stand_out(evidence: Evidence) -> bool:
    """Whether the standout could have shown: among n cosines the best stands at most sqrt(n - 1)
    standard deviations above their mean, so in a vault of a dozen chunks no passage can reach
    :data:`NEAR_Z`, and "nothing is close in meaning" is not known there."""
    n = evidence.semantic_sample
    return n is None or math.sqrt(max(n - 1, 0)) >= NEAR_Z


def judge(evidence: Evidence) -> Signal:
    """The signal of one response, with the reason in words."""
    e = evidence
    z = e.semantic_z
    standout = z is not None and z >= STANDOUT_Z
    if e.results == 0:
        if e.window_entries == 0:  # "what happened last week?" in a vault dated long before it
            return Signal(NONE, "no memory is dated in or near the query's time window", e)
        return Signal(NONE, "nothing matched the query", e)
    if e.window_entries and (e.missing_share is None or e.missing_share < MISSING_SHARE_THIN):
        entries = "1 entry is" if e.window_entries == 1 else f"{e.window_entries} entries are"
        return Signal(STRONG, f"{entries} dated in the query's time window", e)
    if e.missing_share is not None and e.missing_share < MISSING_SHARE_THIN:
        return Signal(STRONG, "the vault holds the query's informative words", e)
    if e.identifiers and not e.identifiers_missing:
        which = "the identifier" if e.identifiers == 1 else f"all {e.identifiers} identifiers"
        return Signal(STRONG, f"the vault holds {which} the query writes", e)
    if standout:
        return Signal(STRONG, f"a passage stands out in meaning ({z:.1f} sd above the vault at large)", e)
    if e.self_territory:
        # "Who am I", "am I allowed to ...": what the self's own notes say is the answer, whatever
        # words the question shares with them (a question of form alone shares none).
        return Signal(
            STRONG, f"a question about the self, answered from its own notes ({e.self_territory})", e
        )
    missing_all = e.missing_share is not None and e.missing_share >= ALL_MISSING
    measurable = can_stand_out(e)
    if e.other_script and missing_all:
        # Words are evidence of absence in one language only: the keyword list could not have
        # matched a memory kept in another, and the embedder that found one reads both.
        return Signal(
            THIN,
            f"no word of the query is in the vault, but passages near it in meaning are written in"
            f" another script ({e.other_script})",
            e,
        )
    if missing_all and (z is None or z < NEAR_Z) and measurable and not e.entities and not e.window_entries:
        return Signal(
            NONE, "no informative word of the query is in the vault, and nothing is close in meaning", e
        )
    if not measurable:
        return Signal(
            THIN,
            f"the vault holds too few passages ({e.semantic_sample}) to tell whether one stands out"
            " in meaning",
            e,
        )
    if e.window_entries == 0:
        return Signal(THIN, "no memory is dated in the query's time window; the nearest follow", e)
    if e.missing_share is None:
        if e.form_only and z is not None and z < NEAR_Z and not e.entities:  # "the", "?!?"
            return Signal(NONE, "the query has no informative words, and nothing is close in meaning", e)
        return Signal(THIN, "the query has no informative words, and nothing stands out in meaning", e)
    return Signal(
        THIN,
        f"{e.missing_share:.0%} of what the query asks is in words the vault never uses,"
        " and nothing stands out in meaning",
        e,
    )
