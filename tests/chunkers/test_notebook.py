"""memsearch.chunkers.notebook (and notebook_yaml): a notebook's YAML files as chunks, bad ones refused."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise

import pytest
from notebook_fixture import dump, moment_document, session_document

from memsearch.chunkers import chunk_file
from memsearch.chunkers.notebook_yaml import MAX_NOTEBOOK_BYTES, load_bounded
from memsearch.config import Settings
from memsearch.errors import UnreadableMemoryError

MOMENT = "notebook/sessions/s-alpha/moments/m-0101.yaml"
SESSION = "notebook/sessions/s-alpha.yaml"


def lines_of(text: str, chunk) -> str:
    return "\n".join(text.split("\n")[chunk.start_line - 1 : chunk.end_line])


def test_a_moment_is_one_chunk_with_its_text_concepts_keys_lines_time_and_relations():
    text = dump(moment_document("s-alpha", "m-0101"))
    parsed = chunk_file(MOMENT, text, Settings())
    (chunk,) = parsed.chunks
    assert chunk.text.startswith("Rotated the signing key after the audit")
    assert "concepts: keyrotation" in chunk.text and "retrieval keys: audit finding" in chunk.text
    assert "sha256:" not in chunk.text  # signatures are no words to search by
    assert (chunk.start_line, chunk.end_line) == (1, len(text.rstrip("\n").split("\n")))
    assert chunk.timestamp == datetime(2026, 3, 1, 9, tzinfo=UTC)
    assert chunk.timestamp_source == "moment"
    assert (chunk.territory, chunk.fact_type) == ("notebook", "experience")
    # concepts and keys are entities, and so are its own id and the moments it links to
    assert {"keyrotation", "audit finding", "m-0101", "m-0102", "m-0302"} <= set(chunk.entities)
    assert parsed.warnings == ()


def test_an_unquoted_yes_or_no_among_the_keys_is_no_name_and_the_moment_says_so():
    # YAML reads `retrieval_keys: [audit, no]` as ["audit", False]: "False" became an entity and a
    # keyword of the moment (Norway's code, a "no" meant as a word, lost either way).
    text = dump(moment_document("s-alpha", "m-0101")).replace(
        "retrieval_keys:\n", "retrieval_keys:\n  - no\n  - on\n", 1
    )
    assert "  - no\n" in text
    parsed = chunk_file(MOMENT, text, Settings())
    (chunk,) = parsed.chunks
    assert "False" not in chunk.text and "True" not in chunk.text
    assert not {"False", "True", "false", "true"} & set(chunk.entities)
    assert "retrieval keys: audit finding" in chunk.text
    assert any("`retrieval_keys` holds true/false" in w and "quote" in w for w in parsed.warnings)


def test_a_session_gives_task_decision_pending_and_escalation_chunks_on_their_own_lines():
    text = dump(session_document("s-alpha"))
    chunks = chunk_file(SESSION, text, Settings()).chunks
    assert [c.heading for c in chunks] == ["task", "decision", "decision", "pending", "escalation"]
    task, first, second, pending, escalation = chunks
    assert "task: Rotate the release signing key" in task.text and "Audit found a weak key" in task.text
    assert "task: Rotate" in lines_of(text, task) and "condensed_history" in lines_of(text, task)
    assert "use ed25519 for the new key" in lines_of(text, first)
    assert "publish on the release page" not in lines_of(text, first)
    assert "publish on the release page" in lines_of(text, second)
    assert lines_of(text, pending).strip() == "- revoke the old key at the keyserver"
    assert "old key may have signed" in lines_of(text, escalation)
    assert "m-0101" in first.entities and "m-0101" in escalation.entities  # the moment it cites
    assert "m-0302" in task.entities  # the session's link, by the linked moment's id
    assert all("s-alpha" in c.entities for c in chunks)
    assert escalation.timestamp == datetime(2026, 3, 2, 10, tzinfo=UTC)  # its own `when`
    ranges = [(c.start_line, c.end_line) for c in chunks]
    assert ranges == sorted(ranges) and all(a[1] < b[0] for a, b in pairwise(ranges))


def test_a_session_item_missing_its_field_is_named_and_the_rest_is_indexed():
    doc = session_document("s-alpha")
    doc["notebook"]["decisions"][0].pop("what")
    parsed = chunk_file(SESSION, dump(doc), Settings())
    assert [c.heading for c in parsed.chunks].count("decision") == 1
    assert any("decision #1" in w and "no `what`" in w for w in parsed.warnings)


@pytest.mark.parametrize(
    ("path", "text", "reason"),
    [
        (MOMENT, "moment: [unclosed\n", "malformed YAML (line"),
        (MOMENT, "moment:\n  id: m-1\n  text: x\n bad indent: y\n", "malformed YAML"),
        (MOMENT, "moment: !!python/object/apply:os.system ['echo hi']\n", "malformed YAML"),
        (MOMENT, "- just\n- a list\n", "no `moment:` mapping"),
        (MOMENT, "moment:\n  modalities: {text: hello}\n", "no `id`"),
        # an id that is there but no name was refused as missing ("moment has no `id`; add one")
        (MOMENT, "moment:\n  id: [a, b]\n  modalities: {text: hello}\n", "`id` [a, b] is no name"),
        (MOMENT, "moment:\n  id: m-1\n  concepts: []\n", "no `modalities.text`"),
        (MOMENT, "moment:\n  id: m-1\n  schema_version: '9.0'\n  modalities: {text: hi}\n", "'9.0'"),
        (SESSION, "notebook:\n  schema_version: '2.0'\n  task: t\n", "unknown notebook schema_version '2.0'"),
        (SESSION, "notebook:\n  task: t\n", "no `schema_version`"),
        (SESSION, "", "empty YAML"),
    ],
)
def test_a_bad_notebook_file_is_refused_with_its_reason(path, text, reason):
    with pytest.raises(UnreadableMemoryError, match=None) as caught:
        chunk_file(path, text, Settings())
    assert reason in str(caught.value)


def billion_laughs(levels: int = 10, width: int = 10) -> str:
    lines = ['a0: &a0 "lol"']
    for n in range(1, levels):
        lines.append(f"a{n}: &a{n} [{', '.join(f'*a{n - 1}' for _ in range(width))}]")
    lines.append("moment:")
    lines.append("  id: m-bomb")
    lines.append("  modalities: {text: boom}")
    lines.append(f"  concepts: *a{levels - 1}")
    return "\n".join(lines) + "\n"


def test_a_yaml_bomb_is_refused_before_it_is_expanded():
    text = billion_laughs()
    assert len(text) < 2000  # a small file standing for 10^9 nodes
    with pytest.raises(UnreadableMemoryError, match="billion laughs"):
        chunk_file(MOMENT, text, Settings())


def test_a_few_aliases_are_fine():
    text = "shared: &c [alpha, beta]\nmoment:\n  id: m-0101\n  modalities: {text: hi}\n  concepts: *c\n"
    (chunk,) = chunk_file(MOMENT, text, Settings()).chunks
    assert {"alpha", "beta"} <= set(chunk.entities)


def test_a_recursive_alias_is_refused():
    with pytest.raises(UnreadableMemoryError, match="recursive"):
        load_bounded("a: &a [1, *a]\n")


def test_a_huge_notebook_file_is_not_parsed():
    text = "moment:\n  id: m-1\n  modalities:\n    text: " + "x" * (MAX_NOTEBOOK_BYTES + 10) + "\n"
    with pytest.raises(UnreadableMemoryError, match="over the 1024 KB limit"):
        chunk_file(MOMENT, text, Settings())


def test_a_deeply_nested_file_is_refused_not_a_crash():
    text = "moment: " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(UnreadableMemoryError):
        chunk_file(MOMENT, text, Settings())


def test_a_session_whose_parts_come_through_a_merge_key_is_still_chunked():
    # The safe constructor folds a merge key's pairs into the node: the lines are read after it.
    text = (
        "base: &base\n  task: Water the plants\n"
        "notebook:\n  schema_version: '1.0'\n  <<: *base\n  pending:\n    - buy a watering can\n"
    )
    parsed = chunk_file(SESSION, text, Settings())
    assert [c.heading for c in parsed.chunks][-1] == "pending"
    assert all(1 <= c.start_line <= c.end_line <= 7 for c in parsed.chunks)


@pytest.mark.parametrize(
    "stamp",
    ["2026-02-30", "2026-03-01T25:00:00", "9999-12-31T23:00:00-12:00", "0001-01-01T00:00:00+14:00"],
)
def test_a_moment_with_a_date_no_calendar_holds_is_indexed_and_dated_by_its_file(stamp):
    # PyYAML fails the whole file on a timestamp the calendar has not (the run called it a memsearch
    # bug, and a moment indexed before was dropped); one UTC cannot hold failed every yearless
    # search later. The moment is read, and its date is said to be unreadable.
    written = dump(moment_document("s-alpha", "m-0101"))
    text = written.replace("timestamp: '2026-03-01T09:00:00Z'", f"timestamp: {stamp}")
    assert f"timestamp: {stamp}" in text
    parsed = chunk_file(MOMENT, text, Settings())
    (chunk,) = parsed.chunks
    assert chunk.text.startswith("Rotated the signing key after the audit")
    assert chunk.timestamp is None or chunk.timestamp_source != "moment"
    assert any("no readable `timestamp`" in w for w in parsed.warnings)
