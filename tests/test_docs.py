"""docs/cli.md is the CLI reference generated from the click commands: every command and every
option is in it, and it is what `python -m memsearch.cli.docs` prints today."""

from __future__ import annotations

from pathlib import Path

import click

from memsearch.cli import main
from memsearch.cli.docs import reference

CLI_MD = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def test_every_command_and_option_is_documented():
    text = CLI_MD.read_text(encoding="utf-8")
    for name, command in main.commands.items():
        assert f"## memsearch {name}\n" in text, f"`memsearch {name}` is not in docs/cli.md"
        section = text.split(f"## memsearch {name}\n", 1)[1].split("\n## ", 1)[0]
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                for opt in param.opts:
                    assert f"`{opt}`" in section, f"`memsearch {name} {opt}` is not in docs/cli.md"


def test_the_reference_is_up_to_date():
    assert CLI_MD.read_text(encoding="utf-8") == reference(), (
        "docs/cli.md is out of date: run `python -m memsearch.cli.docs > docs/cli.md`"
    )
