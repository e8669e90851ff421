"""The CLI reference, generated from the click commands: ``python -m memsearch.cli.docs > docs/cli.md``.

``tests/test_docs.py`` fails when ``docs/cli.md`` is not what this prints (a command or an option
added, changed or removed without running it again).
"""

from __future__ import annotations

import inspect

import click

from memsearch.cli.app import main

HEADER = """# memsearch command line reference

<!-- Generated from the click commands by `python -m memsearch.cli.docs > docs/cli.md`; do not edit by
hand: tests/test_docs.py fails when this file is out of date. -->

Every verb takes the vault the same way: `--vault PATH` (default `$MEMSEARCH_VAULT`, else the current
folder) and, on the verbs whose only subject is the vault, a positional `VAULT` too (`index`,
`reindex` and `watch` need one of the three). `--index-dir` names the index folder (default
`VAULT/.memsearch`, or `$MEMSEARCH_HOME/<name>-<hash>` when `$MEMSEARCH_HOME` is set). Exit codes: 0
done, 1 an error the message explains, 2 a usage error; `reindex` also 3 (indexed, but chunks lack
vectors) and 75 (another writer held the lock). A command stopped by Ctrl-C, SIGTERM or SIGHUP says
so in one line and exits 130, 143 or 129 (`watch` and `serve` finish what is in hand and exit 0); a
stopped `index` or `reindex` leaves the index as its last commit left it, and the next run brings it
up to date. A signal the command was started ignoring stays ignored: under `nohup`, closing the
terminal leaves it running.
"""


def option_line(param: click.Option, ctx: click.Context) -> str:
    """One option as a list item: its names, its value, its help, its environment variable."""
    names = ", ".join(f"`{name}`" for name in [*param.opts, *param.secondary_opts])
    value = "" if param.is_flag else f" `{param.make_metavar(ctx)}`"
    extra = []
    if param.envvar:
        extra.append(f"env `{param.envvar}`")
    if param.show_default and param.default is not None:
        extra.append(f"default {param.default}")
    tail = f" ({'; '.join(extra)})" if extra else ""
    return f"- {names}{value}: {param.help or ''}{tail}".rstrip()


def command_section(name: str, command: click.Command) -> str:
    """A command's section: its usage line, its help, and each of its options."""
    ctx = click.Context(command, info_name=f"memsearch {name}")
    usage = " ".join(command.collect_usage_pieces(ctx))
    lines = [f"## memsearch {name}", "", "```", f"memsearch {name} {usage}", "```", ""]
    lines += [inspect.cleandoc(command.help or ""), ""]
    options = [p for p in command.params if isinstance(p, click.Option) and not p.hidden]
    lines += [option_line(p, ctx) for p in options]
    return "\n".join(lines).rstrip() + "\n"


def reference() -> str:
    """The whole of ``docs/cli.md``."""
    sections = [HEADER]
    sections += [command_section(name, main.commands[name]) for name in sorted(main.commands)]
    return "\n".join(sections)


if __name__ == "__main__":
    click.echo(reference(), nl=False)
