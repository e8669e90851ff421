"""The ranking issue's own questions, tried as a new user would, on a vault of the kind it describes:
system/ and its covenant, reference notes linked to each other, dated journal entries and ledger lines,
an archive, a book by chapters (real files, a real index, the embedded model; `now` fixed)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from vault_files import indexed_vault

NOW = "2025-12-03T12:00:00"  # a Wednesday: "last week" is 24-30 November
#: The files' own times, before NOW: a note without a date of its own is not "recent" by the test's clock.
SAVED = datetime(2025, 10, 1, tzinfo=UTC).timestamp()

FILES = {
    "system/identity.md": (
        "# Who I am\n"
        "\n"
        "I am Wren, the assistant of Jo Ferreira. I keep her projects, her health notes and\n"
        "her calendar in order, and I say plainly when I do not know something.\n"
    ),
    "system/covenant/values.md": (
        "# What I value\n"
        "\n"
        "Honesty before comfort: I tell Jo the truth even when it is unwelcome. I never act on\n"
        "her accounts without asking first. Her privacy comes before convenience.\n"
    ),
    "reference/projects/project-aster.md": (
        "---\n"
        "tags: [project, security]\n"
        "aliases: [Aster]\n"
        "---\n"
        "# Project Aster\n"
        "\n"
        "Aster is Jo's open-source backup tool. Releases are built by CI and signed with our\n"
        "[[signing-keys]]; the redflag check refuses any artefact whose signature does not verify.\n"
        "Maintainers: [[caroline]] and Jo.\n"
    ),
    "reference/security/signing-keys.md": (
        "# Signing keys\n"
        "\n"
        "The release key lives in the hardware token in the office safe; the CI job asks it for a\n"
        "signature over the tarball's digest. The key pair is [[ed25519]]; the public half is published\n"
        "on the website and in the repository's KEYS file. Rotate every two years.\n"
    ),
    "reference/security/ed25519.md": (
        "# Ed25519\n"
        "\n"
        "An Edwards-curve digital signature scheme over Curve25519: 32-byte public keys, 64-byte\n"
        "signatures, deterministic nonces, fast verification. Preferred over RSA-2048 for new keys.\n"
        "The function in our code is `sign_ed25519()`.\n"
    ),
    "reference/people/caroline.md": (
        "# Caroline Mbeki\n"
        "\n"
        "Co-maintainer of Project Aster since 2023. Lives in Leeds, cycles to work, allergic to\n"
        "cats. Prefers reviews in the morning; her birthday is 9 August.\n"
    ),
    "reference/techniques/stage-fright.md": (
        "# Stage fright\n"
        "\n"
        "What helps Jo before a talk: rehearse it aloud twice the day before, slow breathing\n"
        "(four in, six out) in the last ten minutes, and a glass of water on the lectern. The dread\n"
        "usually fades a minute into speaking.\n"
    ),
    "reference/household/gifts.md": (
        "# Gifts\n"
        "\n"
        "What we give: Mum likes scarves and good tea; Dad a new bird book each year. The present\n"
        "for Caroline's birthday was a bicycle bell.\n"
    ),
    "reference/software/app-architecture.md": (
        "# Tally app architecture\n"
        "\n"
        "The presentation layer is a thin React client; the domain layer holds the booking rules;\n"
        "the data layer talks to Postgres. Give each layer its own tests.\n"
    ),
    "reference/howto/incidents.md": (
        "# Incident checklist\n"
        "\n"
        "When something bad happens to the servers: write down what happened and when, page the\n"
        "on-call person, and keep a log until it is resolved.\n"
    ),
    "journal/2023-04-02.md": (
        "# 2023-04-02\n"
        "\n"
        "Spent the afternoon configuring vim: a new colour scheme and a plugin manager. Vim is\n"
        "the text editor I use for everything now.\n"
    ),
    "journal/2025-02-10.md": (
        "# 2025-02-10\n"
        "\n"
        "Switched from vim to Helix as my editor: multiple cursors, and it understands the\n"
        "language servers without plugins. Removed the vim config from the dotfiles.\n"
    ),
    "journal/2025-03-26.md": (
        "# 2025-03-26\n"
        "\n"
        "Dentist at nine: the crown is fitted. In the afternoon Jo renewed the car insurance,\n"
        "cheaper than last year.\n"
    ),
    "journal/2025-06-14.md": (
        "# 2025-06-14\n"
        "\n"
        "Market in the morning; strawberries are back. Caroline came round to plan the Aster\n"
        "2.0 release.\n"
    ),
    "journal/2025-11-24.md": (
        "# 2025-11-24\n\nThe boiler stopped in the night; the engineer replaced the pressure valve by noon.\n"
    ),
    "journal/2025-11-27.md": (
        "# 2025-11-27\n\nJo gave her talk at the library; she was calm after the first minute.\n"
    ),
    "journal/2025-12-02.md": ("# 2025-12-02\n\nQuiet day. Ordered new winter tyres.\n"),
    "archive/2023-editor-setup.md": (
        "# Editor setup (2023)\n"
        "\n"
        "My text editor is vim with the gruvbox scheme; the config lives in the dotfiles repo.\n"
    ),
    "literature/the-long-walk.md": (
        "# The Long Walk\n"
        "\n"
        "## Chapter 1\n"
        "\n"
        "The road out of the village climbs through pine woods.\n"
        "\n"
        "## Chapter 2\n"
        "\n"
        "At the pass, the walkers meet a shepherd who speaks of snow.\n"
        "\n"
        "## Chapter 3\n"
        "\n"
        "They descend at night and reach the sea by morning.\n"
    ),
    "system/voice.md": (
        "# How I speak\n"
        "\n"
        "Short sentences, no jargon with Jo's parents, British spelling. I summarise first and\n"
        "give detail only when asked.\n"
    ),
    "system/covenant/boundaries.md": (
        "# Boundaries\n"
        "\n"
        "I do not send money, sign contracts or delete files without Jo's explicit yes. Medical\n"
        "advice goes to her GP, not to me.\n"
    ),
    "reference/people/jo-ferreira.md": (
        "# Jo Ferreira\n"
        "\n"
        "Software engineer, maintainer of Project Aster. Lives at 14 Fenwick Lane with Ruben the\n"
        "dog. Drinks tea, not coffee, since 2024.\n"
    ),
    "reference/people/dr-sato.md": (
        "# Dr Sato\n"
        "\n"
        "Jo's GP at Larchfield Surgery. Blood tests every six months for the thyroid; phone the\n"
        "surgery at 8am for a same-day appointment.\n"
    ),
    "reference/places/fenwick-lane.md": (
        "# 14 Fenwick Lane\n"
        "\n"
        "Jo's house since September 2024: a terrace with a small garden, the bins go out on\n"
        "Tuesday night, the boiler is a Worcester combi in the kitchen.\n"
    ),
    "reference/household/ruben.md": (
        "# Ruben\n"
        "\n"
        "Jo's lurcher, born 2019. Allergic to chicken; walks at seven and six. The vet is Linnet\n"
        "Vets on the high street.\n"
    ),
    "reference/projects/tally.md": (
        "# Tally\n"
        "\n"
        "The booking app for the bike co-op: a React client over a Python API, hosted on a small\n"
        "VPS. Reminders go out by text the day before a booking.\n"
    ),
    "reference/security/backups.md": (
        "# Backups\n"
        "\n"
        "Aster backs up the laptops every night to the NAS and weekly to an offsite bucket. A\n"
        "restore drill runs on the first Monday of each quarter.\n"
    ),
    "reference/howto/release-checklist.md": (
        "# Release checklist\n"
        "\n"
        "Tag the commit, let CI build the tarballs, check the signature, publish the notes, then\n"
        "announce on the mailing list.\n"
    ),
    "aster/ledger/2025-11.md": (
        "# Ledger 2025-11\n"
        "\n"
        "- 2025-11-03 09:12 Jo asked for the Aster 2.1 milestone list\n"
        "- 2025-11-18 16:40 reminded Jo of the dentist check-up\n"
        "- 2025-11-26 08:05 boiler engineer invoice paid\n"
    ),
    "aster/ledger/2025-03.md": (
        "# Ledger 2025-03\n"
        "\n"
        "- 2025-03-02 10:00 renewed the domain for two years\n"
        "- 2025-03-26 18:30 car insurance renewed online\n"
    ),
    "journal/2023-09-12.md": (
        "# 2023-09-12\n"
        "\n"
        "First week at the new job. Jo likes the team; the commute by train takes forty minutes.\n"
    ),
    "journal/2024-01-15.md": (
        "# 2024-01-15\n\nJo gave up coffee for the new year; headaches for three days, then fine.\n"
    ),
    "journal/2024-03-26.md": (
        "# 2024-03-26\n"
        "\n"
        "Rain all day. Jo worked from home and fixed the flaky test in the backup restore job.\n"
    ),
    "journal/2024-09-20.md": (
        "# 2024-09-20\n"
        "\n"
        "Moving day: everything into Fenwick Lane by five. Ruben hid under the stairs all evening.\n"
    ),
    "journal/2025-05-04.md": (
        "# 2025-05-04\n"
        "\n"
        "Long walk on the coast path with Caroline; talked about stepping back from maintaining.\n"
    ),
    "journal/2025-09-30.md": (
        "# 2025-09-30\n"
        "\n"
        "The library asked Jo to give a talk on backups in November. She said yes, then worried\n"
        "about it all evening.\n"
    ),
    "journal/2025-11-10.md": ("# 2025-11-10\n\nRehearsed the library talk twice. Slides done.\n"),
    "reference/glossary.md": (
        "# Glossary\n"
        "\n"
        "- **HSM**: the hardware token that holds the release key\n"
        "- **redflag**: Aster's signature check in CI\n"
        "- **the co-op**: the bike co-op on Ratchet Street\n"
    ),
    "literature/notes-on-deep-work.md": (
        "# Notes on Deep Work\n"
        "\n"
        "## Chapter 1\n"
        "\n"
        "Shallow work expands to fill the day unless deep work is scheduled first.\n"
        "\n"
        "## Chapter 2\n"
        "\n"
        "Rituals: a fixed place, a fixed time, a clear end.\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    with indexed_vault(tmp_path_factory.mktemp("issue") / "vault", FILES, saved=SAVED) as opened:
        yield opened


def ranked(engine, query: str) -> list[str]:
    return [r.path for r in engine.search(query, k=5, now=NOW).results]


def test_the_algorithm_a_project_signs_with_is_reached_through_its_links(engine):
    """The design's own example: the project's note links the signing keys' note, which links the
    algorithm's; that note says "signature scheme", never "algorithm", "Aster" or "releases"."""
    assert (
        "reference/security/ed25519.md"
        in ranked(engine, "what algorithm does Project Aster sign its releases with")[:3]
    )


def test_nervous_about_a_presentation_finds_the_note_on_stage_fright(engine):
    """No word of it but "presentation" and "giving" is in the vault, and those two are in a note on
    gifts and one on an app's presentation layer."""
    assert "reference/techniques/stage-fright.md" in ranked(engine, "nervous about giving a presentation")[:3]


def test_what_happened_last_week_is_the_weeks_entries(engine):
    response = engine.search("what happened last week", k=3, now=NOW)
    assert {"journal/2025-11-24.md", "journal/2025-11-27.md"} <= {r.path for r in response.results}
    assert "reference/howto/incidents.md" not in ranked(engine, "what happened last week")  # "happens"
    assert response.signal.level == "strong"


def test_the_editor_i_use_now_is_the_newer_entry_that_replaced_the_older(engine):
    """2023: "Vim is the text editor I use for everything now"; 2025: "Switched from vim to Helix".
    A question about now takes the newer; one about the past keeps the older."""
    response = engine.search("which text editor do I use", k=5, now=NOW)
    first = [r.path for r in response.results]
    assert "journal/2025-02-10.md" in first[:3], first
    assert first.index("journal/2025-02-10.md") < first.index("journal/2023-04-02.md"), first
    assert any("replaces" in note and "journal/2023-04-02.md" in note for note in response.health.notes)
    then = ranked(engine, "which text editor did I use before")
    assert then.index("journal/2023-04-02.md") < then.index("journal/2025-02-10.md"), then


def test_a_bare_day_is_that_day_in_the_nearest_year_first(engine):
    """ "On March 26" without a year: 2025's entry (and the ledger's line of that day) before 2024's."""
    first = ranked(engine, "what happened on March 26")
    assert set(first[:2]) == {"journal/2025-03-26.md", "aster/ledger/2025-03.md"}, first
    assert first.index("journal/2024-03-26.md") == 2, first


@pytest.mark.parametrize(
    ("question", "note"),
    [("who am I", "system/identity.md"), ("what do I value", "system/covenant/values.md")],
)
def test_identity_questions_find_the_selfs_own_notes_and_say_so(engine, question, note):
    """ "Who am I" is question form alone, and MiniLM puts the identity note barely above the rest:
    it was `none`, with no results. The self's own territory answers it."""
    response = engine.search(question, k=3, now=NOW)
    assert [r.path for r in response.results][:1] == [note], response.results
    assert response.signal.level == "strong", response.signal


def test_an_identifier_is_found_where_it_is_written(engine):
    assert ranked(engine, "sign_ed25519()")[:1] == ["reference/security/ed25519.md"]


def test_a_word_the_vault_never_mentions_is_none_with_no_results(engine):
    response = engine.search("zanzibar", k=5, now=NOW)
    assert response.signal.level == "none" and response.results == ()


def test_a_book_is_chunked_by_its_chapters(engine):
    chapters = engine.search("the walkers meet a shepherd who speaks of snow", k=1, now=NOW).results[0]
    assert (chapters.path, chapters.heading) == ("literature/the-long-walk.md", "Chapter 2"), chapters
