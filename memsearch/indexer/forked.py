"""Work spread over forked processes that no signal can wedge.

multiprocessing's Pool shares one pipe of tasks and one of results among its processes. Ctrl-C,
SIGTERM or SIGHUP reaches every process of a terminal's group; a worker stopped while it wrote a
result left half a message in the shared pipe, and the Pool, told to terminate, waited for the
rest for ever (seen: ``memsearch index`` hung after SIGTERM, its result thread in ``_recv``).

Here each process has a pipe of its own each way and takes none of those signals (it ignores
them: the run that forked it decides). Its tasks are the list it inherited at the fork, so only
their numbers go down its pipe; its results come back whole, or its pipe is thrown away with it:
the run ends each process with SIGKILL when it stops, whatever the process was doing, and no one
else reads that pipe. A process that dies (the kernel's out-of-memory killer) ends its pipe, which
the run reads as an error rather than a wait for ever; a run that dies ends every pipe of tasks,
which its processes read as the end of their work.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, Pipe, wait
from typing import Any, TypeVar

from memsearch.stops import STOPS

T = TypeVar("T")
R = TypeVar("R")

#: Batches a process is given before its first result comes back: one to work on, one waiting.
AHEAD = 2


class ProcessEnded(Exception):
    """One of the processes ended before its work was done (the kernel's out-of-memory killer):
    how it ended, "killed by SIGKILL" or "exit 1"."""


def in_forked_processes(
    work: Callable[[T], R], tasks: Sequence[T], processes: int, batch: int
) -> Iterator[R]:
    """``map(work, tasks)`` over ``processes`` forked processes, ``batch`` tasks at a time, the
    results in order. What ``work`` raises is raised where its task's result would come; a
    process that ends before its work is done is :class:`ProcessEnded`. The processes are ended
    whenever the iterator is: exhausted, closed, or stopped by what its consumer raised."""
    crew: list[_Process] = []
    try:
        for _ in range(processes):
            _fork(work, tasks, crew)
        yield from _in_order(crew, len(tasks), batch)
    finally:
        try:
            _end(crew)
        except BaseException:  # a stop already on its way as the first began: this one runs blocked
            _end(crew)
            raise


@dataclass(eq=False)
class _Process:
    pid: int
    tasks: Connection  # the run writes (start, end) pairs
    results: Connection  # the process writes ("done", [results]) or ("raised", exception)
    given: deque[int] = field(default_factory=deque)  # the batches it holds, in the order given
    reaped: bool = False  # its pid is no longer its own: never signalled again


def _fork(work: Callable[[Any], Any], tasks: Sequence[Any], crew: list[_Process]) -> None:
    """A new process at the end of ``crew``, serving ``work`` over ``tasks``."""
    task_reader, task_writer = Pipe(duplex=False)
    result_reader, result_writer = Pipe(duplex=False)
    # Blocked across the fork: a signal that arrives now is the run's, after it, and never runs
    # the run's handler in the new process (which ignores it before it unblocks); the new process
    # is in the crew before the run unblocks.
    with _stops_held() as was:
        pid = os.fork()
        if pid == 0:  # the new process: it never returns
            code = 1
            try:
                for signum in STOPS:
                    signal.signal(signum, signal.SIG_IGN)
                signal.pthread_sigmask(signal.SIG_SETMASK, was)
                theirs = [end for p in crew for end in (p.tasks, p.results)]
                for conn in (*theirs, task_writer, result_reader):  # the run's ends, not ours
                    conn.close()
                _serve(work, tasks, task_reader, result_writer)
                code = 0
            finally:
                os._exit(code)  # none of the run's exit handlers: they are the run's
        crew.append(_Process(pid, task_writer, result_reader))
        task_reader.close()
        result_writer.close()


@contextlib.contextmanager
def _stops_held() -> Iterator[set[int | signal.Signals]]:
    """The stop signals held back (blocked) in this thread, the mask before it given; put back on
    every path. The mask is read before it is changed, inside the try: a handler already due runs
    at either call, and the mask is put back all the same."""
    was = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        yield was
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, was)


def _serve(work: Callable[[Any], Any], tasks: Sequence[Any], orders: Connection, out: Connection) -> None:
    while True:
        try:
            start, end = orders.recv()
        except EOFError:  # the run is done with this process, or gone
            return
        try:
            answer: tuple[str, Any] = ("done", [work(task) for task in tasks[start:end]])
        except Exception as exc:
            answer = ("raised", exc)
        try:
            out.send(answer)
        except BrokenPipeError:  # the run is gone
            return
        except Exception as exc:  # what does not pickle: the words of what went wrong do
            failed = answer[1] if answer[0] == "raised" else exc
            out.send(("raised", RuntimeError(f"{type(failed).__name__}: {failed}")))


def _in_order(crew: list[_Process], n_tasks: int, batch: int) -> Iterator[Any]:
    starts = iter(range(0, n_tasks, batch))
    done: dict[int, tuple[str, Any]] = {}
    given = 0
    wanted = 0  # the next batch to yield

    def give(process: _Process) -> None:
        nonlocal given
        start = next(starts, None)
        if start is not None:
            try:
                process.tasks.send((start, min(start + batch, n_tasks)))
            except OSError:  # BrokenPipeError: it ended after its last result
                raise ProcessEnded(_how_it_ended(process)) from None
            process.given.append(start)
            given += 1

    for _ in range(AHEAD):
        for process in crew:
            give(process)
    by_pipe = {process.results: process for process in crew}
    while wanted < given:
        if wanted * batch in done:
            kind, value = done.pop(wanted * batch)
            if kind == "raised":  # where its task's result would have come, as map raises
                raise value
            yield from value
            wanted += 1
            continue
        for pipe in wait([p.results for p in crew if p.given]):
            process = by_pipe[pipe]  # type: ignore[index]
            try:
                done[process.given.popleft()] = process.results.recv()
            except (EOFError, OSError):  # OSError: it ended half way through a result
                raise ProcessEnded(_how_it_ended(process)) from None
            give(process)


def _how_it_ended(process: _Process) -> str:
    with contextlib.suppress(ChildProcessError):
        pid, status = os.waitpid(process.pid, 0)
        process.reaped = True
        if pid and os.WIFSIGNALED(status):
            name = signal.Signals(os.WTERMSIG(status)).name
            return f"killed by {name}"
        if pid:
            return f"exit {os.WEXITSTATUS(status)}"
    return "ended"


def _end(crew: list[_Process]) -> None:
    """Each process killed and reaped, its pipes closed; a second signal waits until it is done
    (else the rest would go on chunking until they found the run gone). Run again, it ends those
    the first left (a stop already due runs its handler as :func:`_stops_held` reads or sets the
    mask)."""
    with _stops_held():
        for process in crew:
            process.tasks.close()
            process.results.close()
            if not process.reaped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(process.pid, 0)
                process.reaped = True
