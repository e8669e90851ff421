"""Ranking promises on a small real vault (real files, real index, the embedded model)."""

from __future__ import annotations

import pytest
from vault_files import indexed_vault, write_vault

from memsearch.api import index_vault, open_index
from memsearch.query import parse_query

NOW = "2025-10-20T12:00:00"

FILES = {
    "reference/clinic.md": (
        "---\ntitle: Clinic\nupdated: 2025-06-01\n---\n# Clinic\n\n## Phone\n"
        "The clinic's main phone number is 01632 960222.\n"
    ),
    "archive/2023-clinic.md": (
        "## March 2023\n\nThe clinic's main phone number is 01632 960111. Phone number on the sign too.\n"
    ),
    "reference/autoclave.md": (
        "---\ntitle: Autoclave\naliases: [Big Blue]\n---\n# Autoclave\n\n"
        "The steam steriliser in the prep room. Service every six months.\n"
    ),
    "journal/2023-03-07.md": (
        "# 2023-03-07\n\nBig Blue died mid-cycle: pressure would not build, E3 on the display.\n"
    ),
    "reference/glossary.md": "# Glossary\n\n- **the Shed Brain** - the garden controller board\n",
    "journal/2025-05-06.md": "# 2025-05-06\n\nFlashed the garden controller board with firmware 2.4.\n",
    "journal/2025-05-07.md": "# 2025-05-07\n\nBought compost and seed trays.\n",
    "reference/jun-park.md": (
        "---\ntitle: Jun Park\naliases: [Jun, Dr Park]\n---\n# Jun Park\n\nAssociate vet, exotics.\n"
    ),
    "journal/2024-02-05.md": "# 2024-02-05\n\nJun's first case: a bearded dragon off its food.\n",
}


def engine_of(tmp_path, files: dict[str, str]):
    """A real engine over a vault of ``files`` (keyword, graph and time: nothing embedded)."""
    vault = tmp_path / "vault"
    write_vault(vault, files)
    index_vault(vault, embed=False)
    return open_index(vault)


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    with indexed_vault(tmp_path_factory.mktemp("ranking") / "vault", FILES) as opened:
        yield opened


def paths(engine, query: str) -> list[str]:
    return [r.path for r in engine.search(query, k=5, now=NOW).results]


def test_a_question_about_now_puts_the_archive_below_the_current_note(engine):
    ranked = paths(engine, "What's the clinic's phone number now?")
    assert ranked.index("reference/clinic.md") < ranked.index("archive/2023-clinic.md")


def test_a_question_about_the_past_does_not_weigh_the_archive_down(engine):
    now = engine.search("What's the clinic's phone number now?", k=5, now=NOW, explain=True)
    before = engine.search("What was the clinic's phone number before?", k=5, now=NOW, explain=True)

    def weight(response) -> float:
        return next(r for r in response.results if r.path.startswith("archive/")).explanation[
            "territory_weight"
        ]

    assert weight(before) > weight(now)


def test_a_when_did_question_weighs_the_dated_entry_up(engine):
    response = engine.search("When did Big Blue die mid-cycle?", k=5, now=NOW, explain=True)
    entry = next(r for r in response.results if r.path == "journal/2023-03-07.md")
    assert response.results[0].path == "journal/2023-03-07.md"
    assert entry.explanation["territory_weight"] > 1.0


def test_a_glossary_nickname_reaches_the_notes_that_use_the_full_name(engine):
    """ "the Shed Brain" is defined in the glossary; the entry says "garden controller board"."""
    ranked = paths(engine, "What did I do with the Shed Brain?")
    assert "journal/2025-05-06.md" in ranked[:2]
    assert "journal/2025-05-07.md" not in ranked[:2]


def test_the_index_learns_prose_aliases(engine):
    assert engine.index.graph.resolve("Shed Brain") == "the garden controller board"


def test_a_full_name_reaches_the_notes_that_use_its_nickname(engine):
    """The autoclave's note says it is "Big Blue"; the entry says only "Big Blue"."""
    ranked = [r.path for r in engine.search("autoclave", k=5, now=NOW, strategies=["keyword"]).results]
    assert "journal/2023-03-07.md" in ranked
    fused = engine.search("autoclave", k=5, now=NOW).results
    assert "journal/2023-03-07.md" in [r.path for r in fused]


def test_a_nickname_sharing_a_word_with_the_full_name_reaches_the_notes_that_use_another(engine):
    """ "Dr Park" shares "Park" with "Jun Park"; the entry calls him "Jun" and says nothing else the
    question says: the entity's other names are searched beside the nickname."""
    ranked = [
        r.path
        for r in engine.search("Which animal came to Dr Park?", k=5, now=NOW, strategies=["keyword"]).results
    ]
    assert "journal/2024-02-05.md" in ranked


def test_a_part_of_the_full_name_is_how_the_notes_write_it_and_takes_no_gloss(engine):
    """ "Jun" is a word of "Jun Park": searched as written, without the entity's other names (they
    would pull his own note over what the question asks)."""
    assert parse_query("What did Jun say?", engine.index.graph, NOW).glosses == ()
    assert [str(g) for g in parse_query("What did Dr Park say?", engine.index.graph, NOW).glosses] == ["jun"]


def test_a_when_did_question_takes_no_recency_prior(engine):
    """Asking when something happened is asking for that event however old: recency is no evidence.
    A question about now, or one that names its time, still has the time strategy."""
    when = engine.search("When did Big Blue die mid-cycle?", k=5, now=NOW)
    assert "time" not in when.health.ran and "recency is no evidence" in when.health.skipped["time"]
    assert when.results[0].path == "journal/2023-03-07.md"
    assert "time" in engine.search("What's the clinic's phone number now?", k=5, now=NOW).health.ran
    assert "time" in engine.search("What did I buy in May 2025?", k=5, now=NOW).health.ran


def test_in_a_vault_of_a_few_notes_an_unknown_word_is_thin_and_the_results_are_shown(engine):
    """No passage of a handful can stand out in meaning, so absence of the query's words alone does not
    hide the results (a paraphrase, or a question in another language, may still be answered)."""
    response = engine.search("zanzibar quokka", k=5, now=NOW)
    assert response.signal.level == "thin" and "too few passages" in response.signal.reason
    assert response.results


def test_a_question_naming_an_identifier_the_vault_holds_is_strong(tmp_path):
    """The vault writes "PO-7781" but never "purchase" nor "order": two of the question's rarest
    words are missing, yet the code it names is there whole. A code the vault does not hold, or only
    in parts ("PO" and "7781" apart), is no such evidence."""
    vault = tmp_path / "vault"
    write_vault(
        vault,
        {
            "journal/2025-03-04.md": "# 2025-03-04\n\nPO-7781 went to Bramble: two boxes of gloves.\n",
            "journal/2025-03-05.md": "# 2025-03-05\n\nGloves arrived; PO 7782 still open with the lab.\n",
            "reference/suppliers.md": "# Suppliers\n\nBramble for gloves and swabs, the lab for bloods.\n",
        },
    )
    index_vault(vault)
    with open_index(vault) as opened:
        held = opened.search("What was purchase order PO-7781 for?", k=5, now=NOW)
        apart = opened.search("What was purchase order PO-7782 for?", k=5, now=NOW)
    assert held.signal.evidence.missing_share >= 0.25  # the words alone would call it thin
    assert held.signal.level == "strong" and "identifier" in held.signal.reason
    assert held.results[0].path == "journal/2025-03-04.md"
    assert apart.signal.level == "thin" and apart.signal.evidence.identifiers_missing == 1


def test_the_share_of_the_query_the_vault_lacks_does_not_depend_on_how_many_nicknames_it_declares(tmp_path):
    """A gloss is the vault's other name for a word the query writes: a second nickname for Jun Park
    must not make "the zeppelin" (a word no note uses) weigh less of the question."""
    shares = []
    for n, aliases in enumerate(("[Dr Park]", "[Dr Park, Junie]")):
        vault = tmp_path / str(n) / "vault"
        note = f"---\ntitle: Jun Park\naliases: {aliases}\n---\n# Jun Park\n\nAssociate vet.\n"
        for rel, text in {
            "reference/jun-park.md": note,
            "journal/2024-02-05.md": "# 2024-02-05\n\nJunie rang about the rota; Jun Park is on call.\n",
        }.items():
            path = vault / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        index_vault(vault)
        with open_index(vault) as opened:
            response = opened.search("What did Jun Park say about the zeppelin?", k=5, now=NOW)
            shares.append(response.signal.evidence.missing_share)
    assert shares[0] is not None and shares[0] > 0
    assert shares[1] == pytest.approx(shares[0])


def test_a_question_asking_only_for_a_day_ranks_the_nearer_past_first(tmp_path):
    """ "What happened on March 26?" asks for that day in every year, the nearest past first. Once
    the day is read as the window, the question's words are its form alone: the passage nearest in
    meaning (a quiet day that reads like an answer to "what happened", two years back) is no
    evidence, and must not put the older year above the nearer one."""
    vault = tmp_path / "vault"
    files = {
        "journal/2024-03-26.md": (
            "# 2024-03-26\n\nQuiet day. Cleared the backlog of dependency updates and closed six stale"
            " tickets.\n"
        ),
        "journal/2025-03-26.md": (
            "# 2025-03-26\n\nRotated the signing keys with Mara. The ceremony took forty minutes; the first"
            " build signed with the new pair was 1.14.0.\n"
        ),
        "journal/2026-03-20.md": (
            "# 2026-03-20\n\nSpent the morning preparing slides for the community call.\n"
        ),
        "reference/meetings.md": (
            "# Meetings\n\nWhat happens at the weekly sync: each person gives a short update.\n"
        ),
    }
    write_vault(vault, files)
    index_vault(vault)
    with open_index(vault) as opened:
        response = opened.search("What happened on March 26?", k=5, now="2026-04-20T12:00:00", explain=True)
    assert [r.path for r in response.results[:2]] == ["journal/2025-03-26.md", "journal/2024-03-26.md"]
    assert all("semantic" not in r.explanation["strategies"] for r in response.results)


def test_recency_takes_no_part_when_every_memory_found_is_as_recent_as_the_others(tmp_path):
    """A collection of reference notes (timeless: each as recent as the others): recency tells the
    notes found apart not at all, so it is no list of the fusion (cut at a hundred through the
    tie, it would have favoured some notes by their paths); with a dated entry found too, it weighs
    as a prior again."""
    vault = tmp_path / "vault"
    for n in range(6):
        path = vault / f"reference/paper-{n}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Paper {n}\n\nSoil microbes and nitrogen, study {n}.\n", encoding="utf-8")
    index_vault(vault)
    with open_index(vault) as engine:
        response = engine.search("soil nitrogen microbes", k=5, now=NOW)
        assert "time" not in response.health.ran
        assert "as recent as the others" in response.health.skipped["time"]
    entry = vault / "journal/2025-09-01.md"
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text("# 2025-09-01\n\nRead up on soil microbes and nitrogen.\n", encoding="utf-8")
    index_vault(vault)
    with open_index(vault) as engine:
        response = engine.search("soil nitrogen microbes", k=5, now=NOW)
        assert "time" in response.health.ran and "time" not in response.health.skipped


ABSTRACTS = {
    "reference/a.md": "# Cytokines in ageing\n\nTNF rises with age in mouse liver; IL6 marks inflammation.\n",
    "reference/b.md": "# Fasting study\n\nIntermittent fasting lowered TNF in obese adults; IL6 unchanged.\n",
    "reference/c.md": "# Sepsis\n\nIn sepsis, TNF and IL1 peak within hours; IL6 follows.\n",
    "reference/d.md": "# Gut flora\n\nMicrobiome diversity shapes bile acid pools in germ-free mice.\n",
}
PARTIAL = "Does TNF shape microbiome diversity during intermittent fasting in sepsis?"


def graph_parts(response) -> int:
    return sum("graph" in r.explanation["strategies"] for r in response.results)


def test_a_walk_from_a_name_the_vault_only_mentions_is_set_aside_on_a_partial_match(tmp_path):
    """TNF is only mentioned (no note, no alias of its own) and no passage holds half the question:
    the walk from it would rank the passages naming TNF by the names beside it, not by what is
    asked, so it takes no part, and the response says why. A note named after TNF makes it an
    entity the vault describes, and the walk is back."""
    vault = tmp_path / "vault"
    write_vault(vault, ABSTRACTS)
    index_vault(vault)
    with open_index(vault) as engine:
        response = engine.search(PARTIAL, k=5, now=NOW, explain=True)
        assert "graph" in response.health.ran
        assert any("graph walk set aside" in note for note in response.health.notes)
        assert response.results and graph_parts(response) == 0
        whole = engine.search("TNF in sepsis", k=5, now=NOW, explain=True)  # the head holds it all
        assert not any("set aside" in note for note in whole.health.notes) and graph_parts(whole) > 0
    (vault / "reference/tnf.md").write_text("# TNF\n\nTumour necrosis factor.\n", encoding="utf-8")
    index_vault(vault)
    with open_index(vault) as engine:
        response = engine.search(PARTIAL, k=5, now=NOW, explain=True)
        assert not any("set aside" in note for note in response.health.notes)
        assert graph_parts(response) > 0


def test_what_happened_last_week_is_not_a_note_saved_last_week(tmp_path):
    """A vault made (or copied) last week: its reference and identity notes and its book have no
    date but their files' mtime, which falls in "last week". They are no memory of last week: with
    no entry dated then, nothing resonates; with one, it is the answer, alone."""
    import os
    from datetime import datetime

    now = "2026-12-04T12:00:00"
    saved = datetime(2026, 11, 25, 9, 0).timestamp()  # Wednesday of last week
    vault = tmp_path / "vault"
    files = {
        "reference/tools.md": "# Tools\n\nHelix as the editor, fish as the shell.\n",
        "system/identity.md": "# Identity\n\nI keep Jo's notes and her calendar.\n",
        "journal/2026-03-02.md": "# 2026-03-02\n\nRepotted the basil.\n",
        "literature/the-long-key.md": "# The Long Key\n\n## Chapter 1\n\nThe ferry left at dawn.\n",
    }
    for path in write_vault(vault, files):
        os.utime(path, (saved, saved))
    index_vault(vault)
    with open_index(vault) as engine:
        response = engine.search("what happened last week", k=5, now=now)
        assert response.signal.level == "none" and response.results == ()
    entry = vault / "journal/2026-11-26.md"
    entry.write_text("# 2026-11-26\n\nThe boiler was serviced.\n", encoding="utf-8")
    index_vault(vault)
    with open_index(vault) as engine:
        response = engine.search("what happened last week", k=5, now=now)
        assert [r.path for r in response.results] == ["journal/2026-11-26.md"]


def test_a_question_of_stopwords_and_a_window_is_answered_by_the_window(tmp_path):
    """ "What did I do in May": once the window is read, the rest is stopwords, the question's form
    alone; the passages nearest to it in meaning read like an answer in any month ("what did I do
    all day?" on April 29th), so the window's entries answer it, as for "what happened in May"."""
    vault = tmp_path / "vault"
    files = {
        "journal/2025-04-29.md": "# 2025-04-29\n\nWhat did I do all day? I did not do much, I did.\n",
        "journal/2025-05-06.md": "# 2025-05-06\n\nFlashed the garden controller board.\n",
        "journal/2025-05-20.md": "# 2025-05-20\n\nBought compost and seed trays.\n",
    }
    write_vault(vault, files)
    index_vault(vault)
    with open_index(vault) as engine:
        response = engine.search("what did I do in May", k=3, now=NOW)
        assert {r.path for r in response.results[:2]} == {"journal/2025-05-06.md", "journal/2025-05-20.md"}


def test_a_question_about_the_agents_own_conduct_weighs_the_system_note_up(tmp_path):
    """ "How should I talk to Tobi?": Tobi's own note names him most and a journal day tells of
    talking to him; how the agent is to talk with him is in system/. A question about the self
    weighs closeness to the self more (system 1.2 cubed), so the system note climbs above the
    journal day; asked as a fact about Tobi, the territories weigh as usual."""
    vault = tmp_path / "vault"
    write_vault(
        vault,
        {
            "reference/people/tobi.md": (
                "# Tobi\n\nTobi runs the Saturday repair stall. Tobi fixes gears; Tobi is the one to"
                " call about bottom brackets. Phone: 07700 900414.\n"
            ),
            "journal/2025-09-29.md": "# 2025-09-29\n\nTalked to Tobi about the stall rota for October.\n",
            "system/relationships.md": (
                "# Relationships\n\n## Tobi\n\nTalk plainly, in short sentences; he hates being managed."
                " Thank him for the work before any ask.\n"
            ),
        },
    )
    index_vault(vault)
    with open_index(vault) as opened:
        conduct = opened.search("How should I talk to Tobi?", k=3, now=NOW, explain=True)
        fact = opened.search("What does Tobi fix?", k=3, now=NOW, explain=True)
    paths = [r.path for r in conduct.results]
    assert paths.index("system/relationships.md") < paths.index("journal/2025-09-29.md"), paths
    assert any("about the self" in note for note in conduct.health.notes)
    system = next(r for r in conduct.results if r.path == "system/relationships.md")
    assert system.explanation["territory_weight"] == pytest.approx(1.2**3)
    assert fact.results[0].path == "reference/people/tobi.md"
    assert not any("about the self" in note for note in fact.health.notes)


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("wifi password", "reference/network.md"),  # the note writes "Wi-Fi"
        ("email the committee", "reference/committee.md"),  # ... "e-mail"
        ("co-op membership fee", "reference/membership.md"),  # ... "coop", and "co" nowhere
        ("purchase PO7781", "journal/2025-02-27.md"),  # ... "PO-7781"
        ("follow-up call", "reference/sam.md"),  # ... "followup", and "follow" elsewhere
        ("NF-κB signalling", "literature/inflammation.md"),  # ... "NF-kappaB"
        ("TNF-alpha levels", "literature/inflammation.md"),  # ... "TNF-α"
    ],
)
def test_a_word_written_with_or_without_its_hyphen_meets_the_vaults_spelling(tmp_path, query, path):
    """ "wifi" for the vault's "Wi-Fi", "email" for its "e-mail", and "co-op" for its "coop": a word
    the vault holds in no form of its own is matched by its spelling with or without hyphens (as
    Lucene's word-delimiter filter joins them), and the query lacks no word."""
    notes = {
        "reference/network.md": "# Network\n\nThe Wi-Fi password is on the router's label.\n",
        "reference/committee.md": "# Committee\n\nTo reach the committee, e-mail the secretary.\n",
        "reference/membership.md": "# Membership\n\nThe coop membership fee is 20 a year.\n",
        "journal/2025-02-27.md": "# 2025-02-27\n\nRaised PO-7781 for the new purchase of parts.\n",
        "reference/passwords.md": "# Passwords\n\nA password manager holds the rest; the committee knows.\n",
        "reference/sam.md": "# Sam\n\nSam wants a followup call in May.\n",
        "reference/river.md": "# River\n\nFollow the river path to the weir; call in at the lock.\n",
        "literature/inflammation.md": "# Inflammation\n\nNF-kappaB signalling raises TNF-α levels.\n",
        "literature/levels.md": "# Levels\n\nThe NF and TNF columns hold the levels of each sample.\n",
    }
    response = engine_of(tmp_path, notes).search(query, k=3, strategies=["keyword"], now=NOW)
    assert [r.path for r in response.results][:1] == [path], response.results
    assert response.signal.evidence.missing_share == 0.0


def test_an_alias_written_with_a_full_stop_is_found_as_the_query_writes_it(tmp_path):
    """`aliases: ["Dr. Okafor"]`: the question "Dr. Okafor" names her (the graph reads a query's
    words without their closing full stop, so an entity's key must too), and her note comes before
    a note that only shares her surname."""
    notes = {
        "reference/people/mara.md": (
            '---\naliases: ["Dr. Okafor", "the PI"]\n---\n'
            "# Mara Okafor\n\nRuns the cryo lab; prefers e-mail.\n"
        ),
        "system/identity.md": "# Who I am\n\nI am Wren, an assistant for the Okafor lab.\n",
    }
    engine = engine_of(tmp_path, notes)
    for question in ("Dr. Okafor", "Dr Okafor", "what does Dr. Okafor prefer"):
        response = engine.search(question, k=2, now=NOW, explain=True)
        assert [r.path for r in response.results][:1] == ["reference/people/mara.md"], (question, response)
        assert "mara okafor" in response.results[0].explanation["query_entities_matched"], question


def test_a_weekly_note_is_dated_by_its_name_and_answers_for_its_week(tmp_path):
    """Obsidian's weekly notes, ``2025-W46.md``: dated Monday 10 November (not the file's mtime),
    so "what happened this week" on Sunday the 16th finds it in the week's window."""
    notes = {
        "journal/2025-W46.md": "# Week 46\n\nMonday: the vacuum pump made a grinding noise.\n",
        "journal/2025-10-01.md": "# 2025-10-01\n\nOrdered a spare vacuum pump.\n",
    }
    engine = engine_of(tmp_path, notes)
    pump = engine.search("vacuum pump grinding", k=1, now="2025-11-16T12:00:00").results[0]
    assert (pump.path, pump.timestamp[:10]) == ("journal/2025-W46.md", "2025-11-10")
    response = engine.search("what happened this week", k=3, now="2025-11-16T12:00:00")
    assert [r.path for r in response.results] == ["journal/2025-W46.md"], response.results
    assert response.signal.level == "strong", response.signal


def test_a_zettel_is_dated_by_its_timestamp_id_and_noting_is_the_questions_form(tmp_path):
    """A Zettelkasten's notes are named by timestamp ids ("202311141230 Spaced repetition.md"):
    dated by them, not by the files' mtimes; and "what did I note" asks for memories as "what did
    I write" does, so a later passage that has the word "note" does not answer for November 2023."""
    notes = {
        "zettels/202311141230 Spaced repetition beats cramming.md": (
            "# Spaced repetition beats cramming\n\nReviewing a card just before it is forgotten beats"
            " rereading it the same evening.\n"
        ),
        "zettels/202311151015 Leitner boxes.md": (
            "# Leitner boxes\n\nFive boxes of index cards; a card answered right moves one box up.\n"
        ),
        "journal/2025-11-20.md": "# 2025-11-20\n\nMade a note to buy more index cards.\n",
    }
    engine = engine_of(tmp_path, notes)
    leitner = engine.search("Leitner boxes", k=1, now="2025-11-25T12:00:00").results[0]
    assert leitner.timestamp[:16] == "2023-11-15T10:15", leitner
    response = engine.search("what did I note in November 2023", k=3, now="2025-11-25T12:00:00")
    assert sorted(r.path for r in response.results) == sorted(p for p in notes if p.startswith("zettels/"))
    assert response.signal.level == "strong", response.signal


@pytest.mark.parametrize("question", ["2025-11-14", "14 November 2025", "yesterday", "last Friday?"])
def test_a_query_that_is_only_a_date_asks_for_that_day(tmp_path, question):
    """ "2025-11-14" alone asks what the vault holds of that day: its entry comes first and the
    signal is strong, not thin for lacking the date's digits as words (the keyword list is no
    judge of a question that is its time window alone)."""
    notes = {
        "journal/2025-11-14.md": "# Friday 14 November 2025\n\n- calibrated the dewar sensor\n",
        "journal/2025-11-10.md": "# 2025-11-10\n\nThe vacuum pump made a grinding noise.\n",
        "reference/dewar.md": "# Dewar\n\nThe sensor offset is -0.3 K since the calibration.\n",
    }
    response = engine_of(tmp_path, notes).search(question, k=3, now="2025-11-15T12:00:00")
    assert [r.path for r in response.results][:1] == ["journal/2025-11-14.md"], response.results
    assert response.signal.level == "strong", response.signal
    assert "keyword" in response.health.skipped, response.health


@pytest.mark.parametrize(
    ("query", "path"),
    [("C++", "reference/stack.md"), ("C#", "reference/tools.md"), ("projects in C", "reference/boot.md")],
)
def test_a_language_name_with_signs_is_not_its_letter(tmp_path, query, path):
    """ "C++" finds the note on the C++17 firmware, not the one on the C bootloader, and "C#" the
    Windows tool's; "C" alone still finds the bootloader."""
    notes = {
        "reference/stack.md": "# Stack\n\nThe firmware is written in C++17.\n",
        "reference/tools.md": "# Tools\n\nThe Windows tool is C#, built with dotnet.\n",
        "reference/boot.md": "# Boot\n\nThe bootloader projects are plain C, in C only.\n",
    }
    response = engine_of(tmp_path, notes).search(query, k=3, strategies=["keyword"], now=NOW)
    assert [r.path for r in response.results][:1] == [path], response.results


def test_a_ledger_line_that_replaces_an_older_one_is_where_the_file_opens(tmp_path):
    """One ledger file, two lines on the same subject: 2023's chose vim, 2025's switched to Helix.
    A question about now opens the file at the newer line; one about the past, at the older."""
    notes = {
        "aster/ledger/editors.md": (
            "- 2023-04-02T10:00 vim is the text editor I use for everything now; new colour scheme\n"
            "- 2024-01-15T09:00 renewed the domain for two years\n"
            "- 2025-02-10T09:30 switched from vim to Helix as my editor: multiple cursors\n"
            "- 2025-06-01T08:00 backed up the dotfiles to the shared drive\n"
        ),
        "journal/2025-03-01.md": "# 2025-03-01\n\nBaked bread; the starter is finally lively.\n",
        "reference/domain.md": "# Domain\n\nRegistered with Gandi; renews every two years.\n",
    }
    engine = engine_of(tmp_path, notes)
    now = engine.search("which text editor do I use", k=3, now="2025-11-01T12:00:00")
    first = now.results[0]
    assert (first.path, first.start_line) == ("aster/ledger/editors.md", 3), now.results
    assert any("editors.md:1 (by aster/ledger/editors.md:3)" in note for note in now.health.notes), now.health
    before = engine.search("which text editor did I use before", k=3, now="2025-11-01T12:00:00")
    assert (before.results[0].path, before.results[0].start_line) == ("aster/ledger/editors.md", 1)


@pytest.mark.parametrize(
    ("query", "day"),
    [
        ("what happened yesterday", "journal/2025-11-15.md"),
        ("what happened on 2025-11-16", "journal/2025-11-16.md"),
    ],
)
def test_a_now_in_the_agents_own_zone_reads_days_as_its_journal_names_them(tmp_path, query, day):
    """An agent asks at 23:30 on the 16th in New York (04:30 on the 17th in UTC): its yesterday is
    the 15th, and its journals are named by its own days. The window was the 15th in New York's
    zone, and the entry named for the 16th fell outside it while the 17th's fell in."""
    files = {
        f"journal/2025-11-{d}.md": f"# 2025-11-{d}\n\nWalked the {word} loop before breakfast.\n"
        for d, word in (("14", "harbour"), ("15", "ridge"), ("16", "river"), ("17", "canal"))
    }
    with engine_of(tmp_path, files) as opened:
        response = opened.search(query, k=4, now="2025-11-16T23:30:00-05:00")
    assert response.results[0].path == day


def test_an_entry_replaces_only_what_its_replacing_sentence_names(tmp_path):
    """The editor switch of a Tuesday the 10th replaced vim, not every entry of a Tuesday or a 10th:
    "what do I eat for dinner these days" put the only dinner entry under it (they shared "tuesday"),
    and "where do I live" the address entry under a Christmas "instead of turkey" (they shared "12")."""
    notes = {
        "journal/2023-02-14.md": "# 2023-02-14 Tuesday\n\nValentine's dinner at home: mushroom risotto.\n",
        "journal/2023-06-01.md": "# 2023-06-01\n\nMy address is 12 Elm Street, Leeds.\n",
        "journal/2023-03-07.md": "# 2023-03-07 Tuesday\n\nvim is the text editor I use for everything.\n",
        "journal/2024-12-25.md": "# 2024-12-25\n\nWe had goose instead of turkey this year.\n",
        "journal/2025-06-10.md": "# 2025-06-10 Tuesday\n\nSwitched from vim to Helix as my editor.\n",
    }
    vault = tmp_path / "vault"
    write_vault(vault, notes)
    index_vault(vault)  # embedded: the semantic list brings every entry into the head
    engine = open_index(vault)
    for query in ("what do I eat for dinner these days", "where do I live"):
        response = engine.search(query, k=5, now="2025-11-17T12:00:00")
        notes_said = " ".join(response.health.notes)
        assert "2023-02-14.md" not in notes_said and "2023-06-01.md" not in notes_said, (query, notes_said)
    editor = engine.search("which text editor do I use", k=5, now="2025-11-17T12:00:00")
    assert any("2023-03-07.md:1 (by journal/2025-06-10.md:1)" in note for note in editor.health.notes)


def test_a_name_with_digits_is_what_a_replacing_sentence_names(tmp_path):
    # "Switched from S3 to B2": numbers are no subject, but S3 and B2 are names
    notes = {
        "journal/2024-10-01.md": "# 2024-10-01\n\nThe nightly backups go to S3 now.\n",
        "journal/2025-01-05.md": "# 2025-01-05\n\nSwitched the nightly backups from S3 to B2.\n",
        "reference/garden.md": "# Garden\n\nThe tomatoes need feeding weekly.\n",
    }
    engine = engine_of(tmp_path, notes)
    response = engine.search("where do the nightly backups go now", k=3, now="2025-06-01T12:00:00")
    assert any("2024-10-01.md:1 (by journal/2025-01-05.md:1)" in note for note in response.health.notes)
    assert response.results[0].path == "journal/2025-01-05.md"


def test_a_team_page_glossing_a_name_keeps_the_name_s_own_aliases(tmp_path):
    """mara.md says ``aliases: [MQ]``; the team page's "**Mara Quint** - hydroponics lead" reads as a
    glossary line and makes the name stand for the role. MQ stood for a key no chunk held: the
    journal naming MQ, and the note itself, were out of ``--entity MQ``."""
    notes = {
        "reference/mara.md": (
            "---\ntitle: Mara Quint\naliases: [MQ]\n---\nMara Quint runs the hydroponics bay and tends the"
            " lettuce racks.\n"
        ),
        "reference/team.md": (
            "# Team\n\n- **Mara Quint** - hydroponics lead\n- **Tomasz Nowak** - electrician\n"
        ),
        "journal/2025-04-02.md": "# 2025-04-02\n\nChecked the seedling trays with MQ this morning.\n",
    }
    engine = engine_of(tmp_path, notes)
    found = engine.search("trays lettuce", k=5, entities=["MQ"], now="2025-05-01T12:00:00")
    assert {r.path for r in found.results} >= {"reference/mara.md", "journal/2025-04-02.md"}, found


@pytest.mark.parametrize("strategies", [None, ("semantic",), ("time",), ("graph", "time"), ("keyword",)])
def test_the_signal_reads_the_query_whichever_lists_run(tmp_path, strategies):
    """The share of the query the vault lacks was read by the keyword list: searched by meaning or
    by time alone, a question whose words the vault holds was "thin: the query has no informative
    words", and one about nothing was said to have none."""
    notes = {
        "journal/2025-03-11.md": "# 2025-03-11\n\nMara approved the new signing key for the release.\n",
        "reference/signing.md": "# Signing\n\nRotated on 2025-03-11; Mara approves every new key.\n",
        "reference/garden.md": "# Garden\n\nThe tomatoes need feeding weekly.\n",
    }
    vault = tmp_path / "vault"
    write_vault(vault, notes)
    index_vault(vault)  # embedded: the semantic list runs
    engine = open_index(vault)
    held = engine.search("who approved the new signing key", k=3, strategies=strategies)
    assert held.signal.level == "strong", held.signal
    nothing = engine.search("kubernetes deployment rollback", k=3, strategies=strategies)
    assert nothing.signal.level in ("none", "thin"), nothing.signal


def test_a_date_searched_by_words_alone_is_searched_as_words(tmp_path):
    """``--strategy keyword -- 2025-03-11``: the date was taken for the time list's window, which did
    not run, and the keyword list the user asked for was skipped."""
    notes = {
        "reference/signing.md": "# Signing\n\nRotated on 2025-03-11; Mara approves every new key.\n",
        "reference/garden.md": "# Garden\n\nThe tomatoes need feeding weekly.\n",
    }
    engine = engine_of(tmp_path, notes)
    response = engine.search("2025-03-11", k=3, strategies=("keyword",))
    assert response.health.ran == ("keyword",)
    assert [r.path for r in response.results] == ["reference/signing.md"]


def test_without_the_time_list_the_signal_reads_the_words_beside_the_time_phrase(tmp_path):
    """Searched by words alone, "last year" is in no note: it counted as missing, and the signal
    said "no memory is dated in the query's time window", of a window no list had read."""
    notes = {
        "journal/2024-05-02.md": "# 2024-05-02\n\nThe signing key was rotated by Mara.\n",
        "reference/garden.md": "# Garden\n\nThe tomatoes need feeding weekly.\n",
    }
    engine = engine_of(tmp_path, notes)
    response = engine.search(
        "signing key rotated last year", now="2025-06-01T12:00:00", strategies=["keyword"]
    )
    assert response.signal.level == "strong" and "window" not in response.signal.reason, response.signal


def test_a_filter_in_the_agents_own_zone_reads_days_as_its_journal_names_them(tmp_path):
    # --since 2025-11-16T00:00-05:00 is the 16th its journal is named for, as its now is
    files = {f"journal/2025-11-{d}.md": f"# 2025-11-{d}\n\nWalked the loop.\n" for d in ("15", "16", "17")}
    with engine_of(tmp_path, files) as opened:
        response = opened.search(
            "walked the loop", k=5, since="2025-11-16T00:00:00-05:00", until="2025-11-16T23:59:00-05:00"
        )
    assert [r.path for r in response.results] == ["journal/2025-11-16.md"]


def test_a_newer_entry_replaces_what_an_older_edited_note_says_not_a_note_only_saved(tmp_path):
    """The accountant's card (updated 2023) said who does the accounts; a 2025 entry says another
    firm takes over. A question about now put the card first. A note with no edit date of its own
    (the identity note, only saved) says nothing of when: it is no older fact."""
    notes = {
        "reference/agnes-tufte.md": (
            "---\ntitle: Agnes Tufte\nupdated: 2023-06-01\n---\n# Agnes Tufte\n\nAgnes does the workshop's"
            " annual accounts and the VAT returns, every spring.\n"
        ),
        "journal/2025-04-02.md": (
            "# 2025-04-02\n\nFjordtall Regnskap takes over the annual accounts and the VAT from Agnes"
            " this term.\n"
        ),
        "system/identity.md": "# Who I am\n\nI keep the paperwork: the VAT folder and the accounts binder.\n",
    }
    engine = engine_of(tmp_path, notes)
    response = engine.search("Who does the annual accounts and VAT now?", k=3, now="2025-10-20T12:00:00")
    said = " ".join(response.health.notes)
    assert "agnes-tufte.md" in said and "identity.md" not in said, said
    assert response.results[0].path == "journal/2025-04-02.md"


def test_a_notes_frontmatter_description_finds_it(tmp_path):
    # The card's body never says "physiotherapist": only its description does.
    files = {
        "reference/people/vesna.md": (
            "---\ntitle: Vesna Vukovic\ndescription: Hal's physiotherapist at the harbour clinic.\n---\n"
            "# Vesna Vukovic\n\nTreats the disc trouble since 2022.\n\n## Hours\n\nTuesdays and Thursdays.\n"
        ),
        "reference/people/marit.md": "# Marit\n\nHal's daughter, a software developer in Bergen.\n",
        "journal/2025-03-04.md": "# 2025-03-04\n\nHal's back was bad again; he skipped the clinic.\n",
    }
    engine = engine_of(tmp_path, files)
    response = engine.search("who is Hal's physiotherapist", k=3, now=NOW, strategies=["keyword"])
    assert [r.path for r in response.results][:1] == ["reference/people/vesna.md"]
    assert response.results[0].start_line == 5  # the passage that opens the note, not the frontmatter


def test_a_named_day_with_only_its_neighbours_shows_them(tmp_path):
    # "last Christmas" with an entry on Christmas Eve only: "last" stayed in the query as a word
    # the vault never uses, and the answer was "none", without results.
    files = {
        "journal/2024-12-24.md": "# 2024-12-24\n\nWrapped presents; the tree went up at five.\n",
        "journal/2025-03-04.md": "# 2025-03-04\n\nFixed the gutter.\n",
        "reference/house.md": "# House\n\nThe gutter is cast iron.\n",
    }
    engine = engine_of(tmp_path, files)
    response = engine.search("what did I do last Christmas", k=3, now="2025-06-18T15:00:00")
    assert response.signal.level == "thin"
    assert [r.path for r in response.results][:1] == ["journal/2024-12-24.md"]


def test_a_question_naming_no_entity_gives_the_links_on_its_heads_no_lead(tmp_path):
    # The graph lead (a partial keyword head, a link on it adding a word of the query) is for chains
    # from a name the query writes. From a question naming none, the note the query is about lost
    # first place to the note it links in a sentence that shares a word with the query.
    engine = engine_of(
        tmp_path,
        {
            "reference/people/ines.md": (
                "# Ines\n\nMy sister, a nurse in Lyon. She started the [[orchard ledger]] with the"
                " cooperative.\n\nSevere peanut allergy: she carries an adrenaline pen.\n"
            ),
            "reference/orchard-ledger.md": (
                "# Orchard ledger\n\nApple harvest weights per tree, kept by the cooperative.\n"
            ),
            "journal/2025-05-07.md": "# 2025-05-07\n\nBought compost and seed trays.\n",
            "reference/bakery.md": "# Bakery\n\nThe bakery on the square opens at seven.\n",
        },
    )
    for query in ("which food must my sibling avoid since she started out", "what must my sister never eat"):
        assert paths(engine, query)[0] == "reference/people/ines.md", query
    # A question naming the note's entity still follows its links to what they reach.
    assert "reference/orchard-ledger.md" in paths(engine, "what did Ines start with the cooperative")
