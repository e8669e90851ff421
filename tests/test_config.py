import pytest

from memsearch.api import index_vault, open_index
from memsearch.config import DEFAULT_TERRITORIES, Settings
from memsearch.errors import ConfigError


def test_defaults_follow_the_design_table():
    s = Settings()
    assert s.territory_for("system/covenant/oath.md").weight == 1.3
    assert s.territory_for("system/tools.md").weight == 1.2
    assert s.territory_for("aster/ledger/2025-03.md").strategy == "ledger"
    assert s.territory_for("aster/notes.md").weight == 1.05
    assert s.territory_for("archive/2024.md").strategy == "archive"
    assert s.territory_for("literature/book.md").fact_type == "experience"
    assert s.territory_for("inbox.md").label == "default"
    assert s.territory_for("notebook/sessions/s.yaml").strategy == "notebook"
    assert len(DEFAULT_TERRITORIES) == 10


def test_vault_declares_its_own_territories(vault_copy):
    (vault_copy / "memsearch.toml").write_text(
        '[[territory]]\nprefix = "people/"\nstrategy = "sections"\nweight = 1.25\nfact_type = "world"\n'
        '[[territory]]\nprefix = "journal/"\nweight = 0.5\n'
    )
    (vault_copy / "people").mkdir()
    (vault_copy / "people" / "mara.md").write_text("# Mara Lin\n\nApproves new signing keys.\n")
    s = Settings().with_vault_config(vault_copy)
    assert s.territory_for("people/mara.md").weight == 1.25
    journal = s.territory_for("journal/2025-03-11.md")
    assert journal.weight == 0.5 and journal.strategy == "journal"  # unspecified fields inherited
    index_vault(vault_copy)
    response = open_index(vault_copy).search("approves signing keys", k=10, chunks=True, explain=True)
    mara = next(r for r in response.results if r.path == "people/mara.md")
    assert mara.territory == "people" and mara.explanation["territory_weight"] == 1.25


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[territory]]\nstrategy = 'sections'\n", "prefix"),
        ("[[territory]]\nprefix = 'x/'\nstrategy = 'pages'\n", "strategy"),
        ("[[territory]]\nprefix = 'x/'\nfact_type = 'opinion'\n", "fact_type"),
        ("[[territory]]\nprefix = 'x/'\nweight = 'heavy'\n", "weight"),
        ("[[territory]\n", "cannot read"),
        # a value of the wrong kind raised TypeError or ValueError as a traceback, or was taken
        ("territory = 5\n", "territory must be"),
        ("index = 5\n", "index must be a"),
        ("search = 5\n", "search must be a"),
        ("[search]\nhalf_life_days = 'x'\n", "half_life_days"),
        ("[search]\nhalf_life_days = 0\n", "half_life_days"),
        ("[search]\nhalf_life_days = nan\n", "half_life_days"),
        ("[[territory]]\nprefix = 5\n", "prefix 5 must be a folder"),
        ("[[territory]]\nprefix = 'x/'\nweight = '1'\n", "weight '1' must be a number"),
        ("[[territory]]\nprefix = 'x/'\nweight = nan\n", "weight"),
    ],
)
def test_bad_config_names_the_file_and_the_field(tmp_path, text, message):
    (tmp_path / "memsearch.toml").write_text(text)
    with pytest.raises(ConfigError, match=message) as info:
        Settings().with_vault_config(tmp_path)
    assert "memsearch.toml" in str(info.value)
