"""Standing interests: a new memory that matches fires exactly one signal, and a reindex fires none."""

import json
import logging

import pytest
from click.testing import CliRunner

from memsearch.api import index_vault
from memsearch.cli import main
from memsearch.signals import check as signals
from memsearch.signals import subscribe

CONFIG = """
[[interest]]
name = "token-budget"
query = "Ed's verdict on the hardware token budget"
threshold = 0.45
urgency = "high"

[[interest]]
name = "sailing"
query = "learning to sail a boat"
"""

MATCHING = (
    "# 2025-04-02\n\nEd wrote back about the hardware token budget: approved, two YubiKeys per maintainer.\n"
)
UNRELATED = "# 2025-04-03\n\nLunch at the market; the weather turned cold and we went home early.\n"


def _inbox(vault):
    path = vault / ".memsearch" / "signals.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture
def watched(vault_copy):
    """A vault with two standing interests, indexed once (the baseline)."""
    (vault_copy / "memsearch.toml").write_text(CONFIG)
    index_vault(vault_copy)
    return vault_copy


def test_a_matching_journal_entry_fires_once_and_a_reindex_fires_nothing(watched):
    assert _inbox(watched) == []  # the baseline run fires nothing
    heard = []
    unsubscribe = subscribe(heard.append)
    try:
        (watched / "journal" / "2025-04-02.md").write_text(MATCHING)
        index_vault(watched)
        events = _inbox(watched)
        assert len(events) == 1
        event = events[0]
        assert event["sensor_name"] == "memory_search" and event["event_type"] == "desire_triggered"
        assert event["target"] == "journal/2025-04-02.md" and event["urgency"] == "high"
        assert event["timestamp"]
        payload = event["payload"]
        assert payload["matched"] == "token-budget"
        assert payload["score"] >= payload["threshold"] == 0.45
        start, end = payload["lines"]
        assert start <= 3 <= end and payload["ref"] == f"journal/2025-04-02.md:{start}-{end}"
        assert heard == events  # the callback saw the same event

        index_vault(watched)
        index_vault(watched)
        assert len(_inbox(watched)) == 1 and len(heard) == 1
    finally:
        unsubscribe()


def test_unrelated_entries_and_other_changes_fire_nothing(watched):
    (watched / "journal" / "2025-04-03.md").write_text(UNRELATED)
    (watched / "inbox.md").write_text((watched / "inbox.md").read_text() + "- Water the plants.\n")
    index_vault(watched)
    assert _inbox(watched) == []
    last = json.loads((watched / ".memsearch" / "signals" / "last_run.json").read_text())
    assert last["new_chunks"] >= 2 and last["events"] == [] and last["error"] is None


def test_the_first_run_is_a_baseline_even_when_memories_match(vault_copy):
    (vault_copy / "memsearch.toml").write_text(CONFIG)
    (vault_copy / "journal" / "2025-04-02.md").write_text(MATCHING)
    index_vault(vault_copy)
    assert _inbox(vault_copy) == []
    state = json.loads((vault_copy / ".memsearch" / "signals" / "state.json").read_text())
    assert state["seen"] and state["fired"] == {}


def test_an_edited_entry_is_a_new_match_but_its_neighbours_are_not(watched):
    path = watched / "journal" / "2025-04-02.md"
    path.write_text(MATCHING)
    index_vault(watched)
    assert len(_inbox(watched)) == 1
    path.write_text(MATCHING + "\nLunch at the market.\n")  # a new, unrelated entry below it
    index_vault(watched)
    assert len(_inbox(watched)) == 1
    path.write_text(MATCHING.replace("two YubiKeys", "three YubiKeys") + "\nLunch at the market.\n")
    index_vault(watched)
    assert len(_inbox(watched)) == 2  # the matching chunk itself changed: a new match


def test_interests_in_a_markdown_file_and_the_file_never_triggers_itself(vault_copy):
    index_vault(vault_copy)  # baseline with no interests
    (vault_copy / "system" / "interests.md").write_text(
        "# Standing interests\n\n"
        "## Security review of the release\n"
        "query: has the security review of the new release finished\n"
        "urgency: critical\n"
        "threshold: 0.5\n\n"
        "## learning to sail a boat\n"
        "Free notes about why I want this.\n"
    )
    index_vault(vault_copy)
    assert _inbox(vault_copy) == []  # its own chunks match its queries perfectly, and must not fire
    (vault_copy / "journal" / "2025-04-04.md").write_text(
        "# 2025-04-04\n\nMara says the security review of the new release is done; no blockers.\n"
    )
    index_vault(vault_copy)
    [event] = _inbox(vault_copy)
    assert event["payload"]["matched"] == "Security review of the release"
    assert event["urgency"] == "critical" and event["target"] == "journal/2025-04-04.md"


def test_inbox_can_live_elsewhere(vault_copy, tmp_path):
    inbox = tmp_path / "agent" / "inbox.jsonl"
    (vault_copy / "memsearch.toml").write_text(CONFIG + f'\n[signals]\ninbox = "{inbox}"\n')
    index_vault(vault_copy)
    (vault_copy / "journal" / "2025-04-02.md").write_text(MATCHING)
    index_vault(vault_copy)
    assert len(inbox.read_text().splitlines()) == 1
    assert oct(inbox.stat().st_mode & 0o777) == "0o600"


def test_a_signal_failure_never_fails_the_index(watched, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("inbox on a read-only disk")

    monkeypatch.setattr(signals, "check_new_memories", broken)
    (watched / "journal" / "2025-04-02.md").write_text(MATCHING)
    with caplog.at_level(logging.WARNING, logger="memsearch.signals"):
        report = index_vault(watched)
    assert report.chunks > 0
    assert "read-only disk" in caplog.text
    monkeypatch.undo()
    index_vault(watched)  # the state was not advanced, so the match is still caught
    assert len(_inbox(watched)) == 1


def test_a_failing_callback_does_not_stop_the_others(watched):
    heard = []

    def bad(event):
        raise ValueError("listener bug")

    undo_bad, undo_good = subscribe(bad), subscribe(heard.append)
    try:
        (watched / "journal" / "2025-04-02.md").write_text(MATCHING)
        index_vault(watched)
    finally:
        undo_bad()
        undo_good()
    assert len(heard) == 1 and len(_inbox(watched)) == 1


def test_with_the_embedder_down_new_chunks_wait_for_the_next_run(watched, monkeypatch):
    from memsearch.embedders.minilm import MiniLMEmbedder

    def down(self, text):
        raise ConnectionError("embedder unreachable")

    monkeypatch.setattr(MiniLMEmbedder, "embed_query", down)
    (watched / "journal" / "2025-04-02.md").write_text(MATCHING)
    index_vault(watched)
    assert _inbox(watched) == []  # wording alone does not reach the threshold
    last = json.loads((watched / ".memsearch" / "signals" / "last_run.json").read_text())
    assert last["deferred"] >= 1
    monkeypatch.undo()
    index_vault(watched)
    assert len(_inbox(watched)) == 1
    index_vault(watched)
    assert len(_inbox(watched)) == 1


def test_interests_command_lists_and_checks(watched):
    (watched / "journal" / "2025-04-02.md").write_text(MATCHING)
    index_vault(watched)
    result = CliRunner().invoke(main, ["interests", "--vault", str(watched), "--check", "--json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert [i["name"] for i in info["interests"]] == ["token-budget", "sailing"]
    budget, sailing = info["interests"]
    assert (
        budget["best"][0]["ref"].startswith("journal/2025-04-02.md") and budget["best"][0]["above_threshold"]
    )
    assert not any(b["above_threshold"] for b in sailing["best"])
    assert info["fired"] == 1 and info["last_run"]["events"]
    human = CliRunner().invoke(main, ["interests", "--vault", str(watched), "--check"])
    assert "would fire" in human.stdout and "signals.jsonl" in human.stdout
