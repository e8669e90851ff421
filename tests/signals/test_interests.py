"""memsearch.signals.interests: standing interests read from memsearch.toml and from a markdown file."""

from memsearch.signals import (
    DEFAULT_INTERESTS_FILE,
    DEFAULT_THRESHOLD,
    load_signal_config,
    parse_interests_markdown,
)


def test_parse_interests_markdown():
    items = parse_interests_markdown(
        "# Interests\n\n## Ed's answer\n- query: did Ed answer about the budget\n- threshold: 0.6\n"
        "```\n## not a heading\nquery: nope\n```\n## Sailing\nsome notes\nurgency: low\n"
    )
    assert [(i["name"], i["query"]) for i in items] == [
        ("Ed's answer", "did Ed answer about the budget"),
        ("Sailing", "Sailing"),
    ]
    assert items[0]["threshold"] == "0.6" and items[1]["urgency"] == "low"


def test_config_defaults_and_bad_interests_are_warnings(vault_copy, tmp_path):
    (vault_copy / "memsearch.toml").write_text(
        '[signals]\ninbox = "events/in.jsonl"\n\n'
        '[[interest]]\nquery = "the budget"\n\n'
        '[[interest]]\nquery = "x"\nthreshold = "high"\n\n'
        '[[interest]]\nname = "no query"\n\n'
        '[[interest]]\nquery = "y"\nurgency = "whenever"\n'
    )
    config = load_signal_config(vault_copy, tmp_path / "home")
    assert [i.query for i in config.interests] == ["the budget"]
    only = config.interests[0]
    assert only.name == "the budget" and only.threshold == DEFAULT_THRESHOLD and only.urgency == "normal"
    assert len(config.warnings) == 3 and all("ignored until fixed" in w for w in config.warnings)
    assert config.inbox == tmp_path / "home" / "events" / "in.jsonl"
    assert config.interests_file == DEFAULT_INTERESTS_FILE


def test_an_interests_file_saved_as_utf16_is_read_as_the_scan_reads_a_note(vault_copy, tmp_path):
    """The interests file is a note of the vault: saved as UTF-16 with its mark (Windows Notepad's
    "Unicode"), it is indexed, so its interests are read too, not warned about."""
    text = "# Interests\n\n## Zoë's visit\nquery: when does Zoë visit\nurgency: low\n"
    (vault_copy / "system" / "interests.md").write_bytes(text.encode("utf-16"))
    config = load_signal_config(vault_copy, tmp_path / "home")
    assert [(i.name, i.query, i.urgency) for i in config.interests] == [
        ("Zoë's visit", "when does Zoë visit", "low")
    ]
    assert config.warnings == ()
