"""Baseline: the usual leaderboard — every row inlined into a gr.Dataframe, and a search box that
re-filters the whole table and sends all of it back on each keystroke.

`python benchmarks/baselines/naive.py --dataset DIR --port N`
"""

from __future__ import annotations

import argparse
from pathlib import Path

import gradio as gr
import pandas as pd

SHOWN = ["model_id", "result", "tp", "wall_s", "hbm_peak_gb", "neuronx_cc", "library_version"]


def read(folder: str) -> pd.DataFrame:
    files = sorted(Path(folder).rglob("*.parquet"))
    return pd.concat([pd.read_parquet(f, columns=SHOWN) for f in files], ignore_index=True)


def build(frame: pd.DataFrame) -> gr.Blocks:
    def search(text: str) -> pd.DataFrame:
        if not text:
            return frame
        return frame[frame["model_id"].str.contains(text, case=False, regex=False)]

    with gr.Blocks(analytics_enabled=False) as demo:
        box = gr.Textbox(label="Search", elem_id="search")
        table = gr.Dataframe(frame, interactive=False, elem_id="results")
        box.change(search, box, table)
    return demo


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--port", type=int, default=7862)
    args = parser.parse_args()
    demo = build(read(args.dataset))
    demo.queue(default_concurrency_limit=16)
    demo.launch(server_name="127.0.0.1", server_port=args.port)
