"""Baseline: the floor for first rows — a Gradio page that shows nothing but a 100-row table filled by a
load event, as our page fills its table (values arrive on load, never inlined).

`python benchmarks/baselines/floor.py --port N`
"""

from __future__ import annotations

import argparse

import gradio as gr

HEADERS = ["Rank", "Model", "Result", "Cores", "Wall time", "Peak memory"]


def rows() -> list[list]:
    """100 rows shaped like ours."""
    return [[i + 1, f"org-{i % 7}/model-{i}-7b", "PASS", 2, f"{i % 9 + 1} min", "12.3 / 48 GB"] for i in range(100)]


def build() -> gr.Blocks:
    with gr.Blocks(analytics_enabled=False) as demo:
        table = gr.Dataframe(headers=HEADERS, interactive=False, elem_id="results")
        demo.load(rows, None, table)
    return demo


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=7863)
    args = parser.parse_args()
    demo = build()
    demo.queue(default_concurrency_limit=16)  # as app.py does
    demo.launch(server_name="127.0.0.1", server_port=args.port)
