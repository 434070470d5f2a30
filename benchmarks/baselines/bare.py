"""Baseline: the barest Gradio page — one textbox — plus a no-op named endpoint (the framework's floor).

`python benchmarks/baselines/bare.py --port N`
"""

from __future__ import annotations

import argparse

import gradio as gr


def noop(
    query: str = "", view: str = "", task: str = "", neuronx_cc: str = "", library_version: str = ""
) -> list[dict]:
    """Takes what /search takes and does nothing."""
    return []


def build() -> gr.Blocks:
    with gr.Blocks(analytics_enabled=False) as demo:
        gr.Textbox(label="Search")
        gr.api(noop, api_name="noop")
    return demo


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=7861)
    args = parser.parse_args()
    demo = build()
    demo.queue(default_concurrency_limit=16)  # as app.py does
    demo.launch(server_name="127.0.0.1", server_port=args.port)
