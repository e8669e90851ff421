"""Work over forked processes: in order, errors raised here, and no signal or death that wedges it."""

import os
import signal
import sys

import pytest

from memsearch.indexer.forked import ProcessEnded, in_forked_processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked processes on Linux only")


def _alive(pid: int) -> bool:
    """Running (a zombie no one reaped yet has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _pids_of(results) -> set[int]:
    return {pid for _, pid in results}


def _square_and_pid(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def _children() -> list[int]:
    """This process's children still in the process table (zombies too)."""
    own = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == own:
                found.append(int(entry))
    return found


def test_results_come_in_order_from_other_processes():
    before = _children()
    tasks = list(range(103))  # batches of 5: the last one short
    got = list(in_forked_processes(_square_and_pid, tasks, processes=3, batch=5))
    assert [value for value, _ in got] == [n * n for n in tasks]
    pids = _pids_of(got)
    assert os.getpid() not in pids and len(pids) >= 2
    assert _children() == before  # every process reaped


def test_no_tasks_no_results():
    assert list(in_forked_processes(_square_and_pid, [], processes=2, batch=4)) == []


def _fails_on_seven(n: int) -> int:
    if n == 7:
        raise ValueError(f"task {n} failed")
    return n


def test_what_the_work_raises_is_raised_here_and_the_processes_are_ended():
    before = _children()
    with pytest.raises(ValueError, match="task 7 failed"):
        list(in_forked_processes(_fails_on_seven, list(range(40)), processes=2, batch=3))
    assert _children() == before


class _Unpicklable(Exception):
    def __init__(self, handle):
        super().__init__("no pickle")
        self.handle = handle

    def __reduce__(self):
        raise TypeError("cannot pickle this")


def _raises_unpicklable(n: int) -> int:
    raise _Unpicklable(lambda: n)


def test_an_exception_that_does_not_pickle_comes_back_as_its_words():
    with pytest.raises(RuntimeError, match="_Unpicklable: no pickle"):
        list(in_forked_processes(_raises_unpicklable, [1, 2], processes=2, batch=1))


def _killed_on_five(n: int) -> int:
    if n == 5:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
    return n


def test_a_process_that_dies_is_an_error_not_a_wait_for_ever():
    before = _children()
    with pytest.raises(ProcessEnded, match="killed by SIGKILL"):
        list(in_forked_processes(_killed_on_five, list(range(30)), processes=2, batch=2))
    assert _children() == before


def _signalled(n: int) -> tuple[int, int]:
    if n % 4 == 0:  # Ctrl-C, kill and a closed terminal reach every process of a group
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            os.kill(os.getpid(), signum)
    return n, os.getpid()


def test_a_stop_signal_does_not_reach_the_work_the_run_decides():
    # A process stopped by a signal while it wrote its result left half a message in
    # multiprocessing.Pool's shared pipe, and the Pool waited for the rest for ever; killed before
    # it wrote, its task was lost and the Pool waited for that. Here the processes ignore stops.
    got = list(in_forked_processes(_signalled, list(range(24)), processes=2, batch=2))
    assert [n for n, _ in got] == list(range(24))


def test_a_run_that_stops_early_ends_its_processes():
    before = _children()
    results = in_forked_processes(_square_and_pid, list(range(1000)), processes=2, batch=10)
    first = next(results)
    pids = {first[1]}
    results.close()  # as when the consumer raises, or a stop unwinds it
    assert all(not _alive(pid) for pid in pids)
    assert _children() == before


def test_processes_left_behind_by_a_run_that_died_end_on_their_own(tmp_path):
    # The run killed outright (SIGKILL: no cleanup of its own): each process reads the end of its
    # tasks and ends, rather than waiting for ever on a pipe another process held open.
    import subprocess
    import textwrap
    import time

    pids_file = tmp_path / "pids"
    script = textwrap.dedent(
        f"""
        import os, signal, time
        from memsearch.indexer.forked import in_forked_processes

        def slow(n):
            with open({str(pids_file)!r}, "a") as fh:
                fh.write(f"{{os.getpid()}}\\n")
            time.sleep(0.05)
            return n

        for n in in_forked_processes(slow, list(range(400)), processes=3, batch=1):
            if n == 10:
                os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], timeout=60)
    assert proc.returncode == -signal.SIGKILL
    pids = {int(p) for p in pids_file.read_text().split()}
    assert len(pids) == 3
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids), "a process outlived the run that forked it"


def _slow_then_fails(n: int) -> int:
    import time

    if n == 5:
        raise ValueError("task 5 failed")
    time.sleep(0.15)
    return n


def test_what_a_task_raises_comes_where_its_result_would():
    # As map raises: every result before the failing task's first (it was raised as soon as it
    # came back, before results of earlier tasks still being worked on).
    got = []
    with pytest.raises(ValueError, match="task 5 failed"):
        for n in in_forked_processes(_slow_then_fails, list(range(12)), processes=2, batch=1):
            got.append(n)
    assert got == [0, 1, 2, 3, 4]


def _megabyte_and_pid(n: int) -> tuple[int, bytes]:
    return os.getpid(), b"x" * 1_000_000


def test_a_process_killed_half_way_through_a_result_is_an_error_too():
    # A result bigger than the pipe holds is written while the run reads it; killed half way, the
    # rest never came: multiprocessing's reader raised OSError("got end of file during message").
    import time

    before = _children()
    with pytest.raises(ProcessEnded, match="killed by SIGKILL"):
        for i, (pid, _) in enumerate(in_forked_processes(_megabyte_and_pid, list(range(20)), 2, 1)):
            if i == 0:
                time.sleep(0.5)  # the run reads nothing meanwhile: the other process waits mid-write
                (other,) = [child for child in _children() if child not in before and child != pid]
                os.kill(other, signal.SIGKILL)
    assert _children() == before
