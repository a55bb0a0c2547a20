"""The suite runs each test below one large frame (tests/env_plugin.py, `in_a_stack_chunk_of_its_own`):
CPython 3.11 maps a chunk of its frame stack each time calls go past a chunk's end, and unmaps it as
soon as they come back; below the large frame, the calls of a test find room in one chunk mapped
once. Should a later CPython keep its chunks (as 3.13 does), the first test says the large frame
is no longer needed."""

import resource
import sys
import threading

from tests.env_plugin import LARGE_FRAME, in_a_stack_chunk_of_its_own

DESCENTS = 2000


def down(depth):
    return down(depth - 1) if depth else 0


def down_and_up_again():
    """Calls 400 deep and back, again and again: past the end of a new thread's first chunk."""
    for _ in range(DESCENTS):
        down(400)


def page_faults(run):
    """The page faults of a new thread (its frame stack starts with one chunk) while it runs `run`."""
    found = []

    def measured():
        before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
        run()
        found.append(resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before)

    thread = threading.Thread(target=measured)
    thread.start()
    thread.join()
    return found[0]


def test_calls_across_a_chunks_end_map_it_each_time_but_below_the_large_frame():
    assert page_faults(down_and_up_again) >= DESCENTS  # a chunk mapped, its first page touched
    assert page_faults(lambda: in_a_stack_chunk_of_its_own(down_and_up_again)) < DESCENTS / 10


def test_each_test_runs_below_the_large_frame():
    codes, frame = [], sys._getframe()
    while frame is not None:
        codes.append(frame.f_code)
        frame = frame.f_back
    assert in_a_stack_chunk_of_its_own.__code__ in codes
    assert in_a_stack_chunk_of_its_own.__code__.co_stacksize >= LARGE_FRAME
