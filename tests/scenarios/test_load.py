"""Load: many searches, in threads and in other processes, while one writer updates the index.

Consistency: every answer must equal the answer of some committed state. The writer rewrites two
files together in each update (one commit), both carrying the update's number; for every commit of
the index, the answer to a fixed query is computed afterwards from that commit alone (``at=``).
Each version has its own number of lines, so an answer (paths, lines, headings, scores) names the
update it came from; one seen during the run that is none of those (e.g. one file at update 4 and
the other at update 5: half an update) is inconsistent. Zero errors, zero inconsistent answers; the number of
searches served is printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from memsearch.api import index_vault, log, open_index

QUERY = "ledgerpulse heartbeat"
STRATEGIES = ("keyword", "graph")
UPDATES = 12
THREADS = 6
PROCESSES = 2
BUDGET_SECONDS = 60.0

_CHILD = r"""
import json, sys, time
from pathlib import Path
from memsearch.api import open_index
vault, out, stop = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
query, strategies = sys.argv[4], tuple(sys.argv[5].split(","))
engine = open_index(vault)
n = errors = 0
with open(out, "w") as fh:
    while True:
        try:
            engine.refresh()
            r = engine.search(query, k=10, strategies=strategies, chunks=True)
            answer = [[x.path, x.start_line, x.end_line, x.heading, round(x.score, 4)] for x in r.results]
            fh.write(json.dumps(answer) + "\n")
            n += 1
        except Exception as exc:
            errors += 1
            fh.write(json.dumps({"error": repr(exc)}) + "\n")
        if stop.exists():
            break
print(json.dumps({"served": n, "errors": errors}))
"""


def _answer(response) -> tuple:
    return tuple((r.path, r.start_line, r.end_line, r.heading, round(r.score, 4)) for r in response.results)


def _version(vault: Path, i: int) -> None:
    beats = "\n".join(f"- beat {j} of update {i}" for j in range(i + 1))
    for name, other in (("a", "b"), ("b", "a")):
        (vault / "live" / f"{name}.md").write_text(
            f"# Ledgerpulse {name}\n\nThe ledgerpulse heartbeat is at update {i} (see {other}).\n{beats}\n",
            encoding="utf-8",
        )


def test_searches_during_updates_answer_from_committed_states(vault_copy, tmp_path):
    vault = vault_copy
    (vault / "live").mkdir()
    _version(vault, 0)
    index_vault(vault)
    started = time.monotonic()
    stop_file = tmp_path / "stop"
    stop = threading.Event()
    observed: list[tuple] = []
    errors: list[str] = []
    lock = threading.Lock()
    shared = open_index(vault)

    def searcher(own: bool) -> None:
        engine = open_index(vault) if own else shared
        seen: list[tuple] = []
        while not stop.is_set():
            try:
                engine.refresh()
                seen.append(_answer(engine.search(QUERY, k=10, strategies=STRATEGIES, chunks=True)))
            except Exception as exc:  # every failure counts
                with lock:
                    errors.append(repr(exc))
        with lock:
            observed.extend(seen)

    children = []
    for n in range(PROCESSES):
        out = tmp_path / f"child{n}.jsonl"
        proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(vault), str(out), str(stop_file), QUERY, ",".join(STRATEGIES)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ},
        )
        children.append((proc, out))
    threads = [threading.Thread(target=searcher, args=(i % 2 == 0,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    for i in range(1, UPDATES + 1):
        _version(vault, i)
        report = index_vault(vault, paths=["live/a.md", "live/b.md"])
        assert report.commit is not None
        time.sleep(0.05)
    time.sleep(0.5)
    stop.set()
    stop_file.write_text("stop")
    for t in threads:
        t.join(timeout=30)
    served_processes = 0
    for proc, out in children:
        stdout, stderr = proc.communicate(timeout=60)
        assert proc.returncode == 0, stderr.decode()
        summary = json.loads(stdout.decode().strip().splitlines()[-1])
        served_processes += summary["served"]
        for line in out.read_text().splitlines():
            item = json.loads(line)
            if isinstance(item, dict):
                errors.append(item["error"])
            else:
                observed.append(tuple(tuple(x) for x in item))

    # the answer of every committed state, each computed from that commit alone
    expected = {}
    for commit in log(vault):
        engine = open_index(vault, at=commit["commit"])
        expected[commit["commit"]] = _answer(engine.search(QUERY, k=10, strategies=STRATEGIES, chunks=True))
    allowed = set(expected.values())
    inconsistent = [a for a in observed if a not in allowed]
    elapsed = time.monotonic() - started
    distinct = len({a for a in observed})
    print(
        f"\nload: {len(observed)} searches served ({len(observed) - served_processes} in {THREADS} threads,"
        f" {served_processes} in {PROCESSES} processes) during {UPDATES} updates in {elapsed:.1f} s;"
        f" {distinct} distinct answers of {len(allowed)} committed states; {len(errors)} errors,"
        f" {len(inconsistent)} inconsistent"
    )
    assert not errors, errors[:5]
    assert not inconsistent, inconsistent[:2]
    assert len(allowed) == UPDATES + 1  # every update changed the answer
    assert distinct >= 2  # the searchers did see the index change under them
    assert served_processes > 0
    assert elapsed < BUDGET_SECONDS
