"""The vault config's ``[modalities]`` table: which notebook sidecars are read."""

from __future__ import annotations

import pytest

from memsearch.config import Settings, apply_config
from memsearch.errors import ConfigError
from memsearch.sidecars import DEFAULT_MODALITIES


def test_the_defaults_are_audio_image_and_joint():
    assert Settings().modalities == DEFAULT_MODALITIES == ("audio", "image", "joint")


def test_a_modality_can_be_opted_out_and_one_declared():
    got = apply_config(Settings(), {"modalities": {"audio": False, "depth": True, "image": True}})
    assert got.modalities == ("image", "joint", "depth")


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"audio": "no"}, "must be true or false"),
        ({"Depth": True}, "is not a modality name"),
        ({"a.b": True}, "is not a modality name"),
        ({"text": False}, "not text, which is always indexed"),
        ("audio", "must be a table"),
    ],
)
def test_a_bad_modalities_table_is_named(table, message):
    with pytest.raises(ConfigError, match=message) as caught:
        apply_config(Settings(), {"modalities": table}, source="vault/memsearch.toml")
    assert "vault/memsearch.toml" in str(caught.value)
