"""Ours with Gradio's server-side rendering forced on: what a Space would run if app.py did not turn it off.

`python benchmarks/baselines/ssr_on.py --dataset DIR --rankings FILE --port N` (GRADIO_NODE_PATH: a Node 24)

For the benchmarks only, so that both modes are measured in one run; the app itself has no such switch.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import app  # noqa: E402

shipped = app.serve


def serve_with_ssr(demo, **launch):
    return shipped(demo, **{**launch, "ssr_mode": True})


app.serve = serve_with_ssr  # main() looks serve up when it runs

if __name__ == "__main__":
    app.main()
