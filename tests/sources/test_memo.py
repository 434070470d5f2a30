"""`approx_bytes`: what an answer weighs (the memo's bound itself is tested in test_moment_cache.py)."""

import numpy as np
import pandas as pd

from components.sources.memo import approx_bytes


def test_weights_follow_what_answers_hold():
    frame = pd.DataFrame({"model_id": [f"org/model-{i}" for i in range(1000)], "tp": np.arange(1000)})
    assert approx_bytes(frame) == frame.memory_usage(deep=True).sum()
    rows = [{"model_id": f"org/model-{i}", "tp": i} for i in range(10_000)]
    exact = sum(approx_bytes(r) for r in rows)
    assert 0.9 * exact < approx_bytes(rows) - approx_bytes([]) < 1.1 * exact  # weighed by a sample
    assert approx_bytes(("x" * 10_000, [np.zeros(1000)])) > 18_000
