import threading
import time

import numpy as np
import pandas as pd
import pytest

from components.sources.memo import Memo, approx_bytes

KB = 1024


def test_the_cache_stays_under_its_byte_bound_and_drops_the_least_recently_used():
    memo = Memo(max_bytes=1000 * KB)
    for i in range(100):
        memo.get(i, lambda: np.zeros(100 * KB, dtype=np.uint8))
        memo.get(0, lambda: pytest.fail("0 was used last, so it is kept"))
        assert memo.bytes <= memo.max_bytes
    assert len(memo) == 10 and 0 in memo and 99 in memo and 1 not in memo
    assert memo.bytes == 10 * approx_bytes(np.zeros(100 * KB, dtype=np.uint8))


def test_an_answer_bigger_than_the_bound_is_returned_not_kept():
    memo = Memo(max_bytes=10 * KB)
    big = memo.get("big", lambda: np.zeros(20 * KB, dtype=np.uint8))
    assert len(big) == 20 * KB and "big" not in memo and memo.bytes == 0


def test_concurrent_identical_requests_compute_once():
    memo = Memo(max_bytes=1000 * KB)
    calls = []
    start = threading.Barrier(8)
    answers = []

    def compute():
        calls.append(1)
        time.sleep(0.2)  # long enough that every thread asks while the first computes
        return ["answer"]

    def ask():
        start.wait()
        answers.append(memo.get("key", compute))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert len(answers) == 8 and all(a is answers[0] for a in answers)


def test_a_failed_computation_is_not_kept_and_the_next_request_tries_again():
    memo = Memo(max_bytes=KB)

    def broken():
        raise ValueError("no")

    with pytest.raises(ValueError):
        memo.get("key", broken)
    assert memo.get("key", lambda: "fine") == "fine"


def test_weights_follow_what_answers_hold():
    frame = pd.DataFrame({"model_id": [f"org/model-{i}" for i in range(1000)], "tp": np.arange(1000)})
    assert approx_bytes(frame) == frame.memory_usage(deep=True).sum()
    rows = [{"model_id": f"org/model-{i}", "tp": i} for i in range(10_000)]
    exact = sum(approx_bytes(r) for r in rows)
    assert 0.9 * exact < approx_bytes(rows) - approx_bytes([]) < 1.1 * exact  # weighed by a sample
    assert approx_bytes(("x" * 10_000, [np.zeros(1000)])) > 18_000
