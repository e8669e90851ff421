"""Bad arguments end the CLI with the message and its exit code, every time, never a signal.

The embedder loads on a thread from the moment a search starts; a process that exited while
onnxruntime was still starting on it aborted ("terminate called without an active exception",
exit 134 or 139) in most runs. So each bad argument runs many times, each in its own process.
"""

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from memsearch.cli import EXIT_ERROR

RUNS = 15

BAD = {
    "blank query": (["search", "   "], "the query is empty"),
    "empty query": (["search", ""], "the query is empty"),
    "--since yesterday": (
        ["search", "signing keys", "--since", "yesterday"],
        "--since: 'yesterday' is not a date",  # the option as it was typed ("since:" was the API's)
    ),
    "--now notadate": (["search", "signing keys", "--now", "notadate"], "--now: 'notadate' is not a date"),
}


def _run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "memsearch.cli", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_argument_exits_with_its_code_in_every_run(indexed_vault, case):
    args, message = BAD[case]
    args = [*args, "--vault", str(indexed_vault), "--no-server"]
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(_run, [args] * RUNS))
    codes = [p.returncode for p in done]
    assert codes == [EXIT_ERROR] * RUNS, (case, codes, {p.stderr[-300:] for p in done})
    assert all(message in p.stderr and "terminate called" not in p.stderr for p in done), done[0].stderr


def _batch(vault, lines: list[bytes], *extra: str) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-m", "memsearch.cli", "search", "--batch", "-", "--vault", str(vault), *extra],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]


def test_a_bad_batch_line_is_answered_with_its_error_and_the_later_lines_still_run(indexed_vault):
    good = json.dumps({"id": "good", "query": "sign_ed25519", "k": 2}).encode()
    lines = [
        b'{"id": "bytes", "query": "sign\xff"}',
        good,
        b'{"id": "surrogate", "query": "sign \\ud800"}',
        good,
        b'{"id": "five", "query": "sign", "k": "five"}',
        b'{"id": "typo", "query": "sign", "fact-type": "world"}',
        b'{"id": "limit", "query": "sign", "limit": 3}',
        good,
        b'{"id": "since", "query": "sign", "since": "notadate"}',
    ]
    for extra in ([], ["--no-server"]):
        answers = _batch(indexed_vault, lines, *extra)
        assert [a["id"] for a in answers] == [
            None,
            "good",
            "surrogate",
            "good",
            "five",
            "typo",
            "limit",
            "good",
            "since",
        ]
        errors = [a.get("error", "") for a in answers]
        assert "line 1: not UTF-8" in errors[0]
        assert "line 3:" in errors[2] and "surrogate" in errors[2]
        assert "line 5: k must be a positive whole number (got 'five')" in errors[4]
        assert "line 6: unknown field 'fact-type'" in errors[5] and "fact_type" in errors[5]
        assert "line 7: unknown field 'limit'" in errors[6]
        assert errors[8].startswith("line 9: since: 'notadate' is not a date"), errors[8]  # the engine's
        for i in (1, 3, 7):
            assert "error" not in answers[i] and answers[i]["results"][0]["path"] == "reference/redflag.md"


def test_a_batch_line_whose_search_fails_unexpectedly_is_that_lines_answer(capsys):
    # A search that raised anything but a deliberate error ended the batch: the lines after it went
    # unanswered (a year-9999 `until` did, before it was mended). The failing search is the test's.
    from io import BytesIO

    from memsearch.cli.searching import run_batch

    def search(query, k, options):
        if query == "boom":
            raise OverflowError("date value out of range")
        return {"query": query, "results": []}

    lines = b'{"id": 1, "query": "a"}\n{"id": 2, "query": "boom"}\n{"id": 3, "query": "c"}\n'
    run_batch(search, BytesIO(lines), 5, {})
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert answers[1]["error"].startswith("line 2: the search failed unexpectedly (OverflowError")
    assert answers[2]["query"] == "c" and "error" not in answers[2]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="chunking forks its processes on Linux only")
def test_an_index_run_stopped_by_a_signal_says_so_in_one_line(tmp_path):
    # Ctrl-C (to the whole process group) or SIGTERM while a run's processes chunked printed their
    # tracebacks (KeyboardInterrupt, BrokenPipeError), or only click's "Aborted!". The run's
    # length varies with the machine: each signal is sent at several moments of a run that has
    # work to do, and every outcome is checked; at least one run must have been stopped.
    import os
    import signal
    import time

    vault = tmp_path / "vault"
    (vault / "notes").mkdir(parents=True)
    body = "\n\n".join(f"## Part {j}\n\nalpha beta gamma {j} delta epsilon" for j in range(6))
    stopped = []
    for attempt, (sig, delay) in enumerate(
        [(s, d) for d in (0.6, 0.9, 1.2, 1.6) for s in (signal.SIGINT, signal.SIGTERM)]
    ):
        for i in range(1500):
            (vault / "notes" / f"n{i}.md").write_text(f"# Note {i}\n\n{body}\n\nrun {attempt}\n")
        proc = subprocess.Popen(
            [sys.executable, "-m", "memsearch.cli", "index", str(vault), "--no-embed"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env={**os.environ, "MEMSEARCH_WORKERS": "2"},
        )
        time.sleep(delay)
        if proc.poll() is None:
            os.killpg(proc.pid, sig)  # as a terminal sends Ctrl-C: to every process of the group
        _, err = proc.communicate(timeout=120)
        text = err.decode()
        assert "Traceback" not in text and "Aborted!" not in text, text[:2000]
        if proc.returncode != 0:
            stopped.append(proc.returncode)
            assert proc.returncode == 128 + sig, (sig, proc.returncode, text)
            assert "interrupted" in text and "memsearch index" in text, text
    assert stopped, "no run was stopped: the runs ended before every signal"


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_batch_search_stopped_by_a_signal_says_so_in_one_line(indexed_vault, stop):
    # SIGTERM and SIGHUP ended `memsearch search --batch -` where it stood (-15, -1), silently;
    # Ctrl-C was click's bare "Aborted!" and exit 1.
    import signal

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "memsearch.cli",
            "search",
            "--batch",
            "-",
            "--vault",
            str(indexed_vault),
            "--no-server",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps({"id": "one", "query": "sign_ed25519", "k": 1}).encode() + b"\n")
    proc.stdin.flush()
    first = json.loads(proc.stdout.readline())  # the command runs: its answer to the first line
    proc.send_signal(getattr(signal, stop))
    _, err = proc.communicate(timeout=60)
    signum = getattr(signal, stop)
    assert first["id"] == "one" and first["results"]
    assert proc.returncode == 128 + signum, (proc.returncode, err[-500:])
    said = err.decode().strip().splitlines()
    assert said == [f"memsearch search: interrupted ({stop})"], said


_STOPPED_MODULE = """
import ctypes
import os
import signal
import sys
import time

import click

from memsearch.cli.process import run_console, stops_cleanly

SIGNUM = getattr(signal, sys.argv.pop())


@click.group()
def main():
    pass


def stop_now():
    os.kill(os.getpid(), SIGNUM)
    time.sleep(5)


@main.command()
@stops_cleanly("inside")
def inside():
    # Python code that an extension runs (as some imports do), stopped there: CPython ended the
    # process by SIGINT when a KeyboardInterrupt left such code, whatever it exited with.
    run = ctypes.pythonapi.PyRun_String
    run.restype = ctypes.py_object
    run.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.py_object, ctypes.py_object]
    code = f"import os, signal, time\\nos.kill(os.getpid(), {int(SIGNUM)})\\ntime.sleep(5)"
    run(code.encode(), 257, {}, {})


@main.command()
@stops_cleanly("twice")
def twice():
    # A second stop as the process ends (its exit handlers, a __del__): it raised there, or, once
    # the interpreter had put the default handler back, killed the process.
    import atexit

    atexit.register(lambda: (os.kill(os.getpid(), SIGNUM), time.sleep(0.3)))
    stop_now()


@main.command()
def plain():
    # A command without words of its own for a stop (or the moments before a command's own)
    stop_now()


run_console(main)
"""


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("command", ["inside", "plain", "twice"])
def test_a_stop_anywhere_in_the_console_script_says_so_and_exits_128_plus_the_signal(tmp_path, command, stop):
    # "inside": said, then killed by SIGINT (-2) under `python -m`, whatever the stop.
    # "plain": SIGTERM and SIGHUP ended it silently (-15, -1); Ctrl-C was click's "Aborted!", 1.
    import signal

    (tmp_path / "stopped_console.py").write_text(_STOPPED_MODULE)
    run = subprocess.run(
        [sys.executable, "-m", "stopped_console", command, stop],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 128 + getattr(signal, stop), (run.returncode, run.stderr[-1000:])
    assert run.stderr.strip().splitlines() == [f"memsearch {command}: interrupted ({stop})"]
