"""The stop signals are caught where the process was not told to ignore them."""

import signal
import threading

from memsearch.stops import STOPS, catch_stops, ignore_stops, restore


def _handler(signum, frame):
    raise AssertionError("not called here")


def test_a_stop_the_process_ignores_stays_ignored_and_the_rest_are_caught_then_restored():
    before = {signum: signal.getsignal(signum) for signum in STOPS}
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup starts a command
    try:
        caught = catch_stops(_handler)
        assert signal.SIGHUP not in caught and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert set(caught) == set(STOPS) - {signal.SIGHUP}
        assert all(signal.getsignal(signum) is _handler for signum in caught)
        ignore_stops(caught)
        assert all(signal.getsignal(signum) is signal.SIG_IGN for signum in caught)
        restore(caught)
        assert signal.getsignal(signal.SIGTERM) is before[signal.SIGTERM]
        assert signal.getsignal(signal.SIGINT) is before[signal.SIGINT]
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_outside_the_main_thread_nothing_is_caught():
    got = []
    thread = threading.Thread(target=lambda: got.append(catch_stops(_handler)))
    thread.start()
    thread.join()
    assert got == [{}]
