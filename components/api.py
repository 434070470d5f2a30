"""The named endpoints: plain JSON answers for programs (gradio_client, MCP, curl).

Each method reads the current snapshot and rankings once, so one answer never mixes two loads.
The docstrings are the endpoints' descriptions in the API page and the MCP schema.
"""

from __future__ import annotations

from components import details, views
from components.rankings import RankingsStore
from components.store import DatasetStore


class Api:
    def __init__(self, datasets: DatasetStore, rankings: RankingsStore):
        self.datasets = datasets
        self.rankings = rankings

    def stacks(self) -> list[dict]:
        """List the tested software stacks, newest first.

        Returns:
            A list of {neuronx_cc, library, library_version, models, passed}: the neuronx-cc compiler
            version, the library (e.g. transformers) and its version, how many models were run on
            that stack and how many passed.
        """
        return [s.as_dict() for s in self.datasets.current().stacks]

    def search(
        self, query: str = "", view: str = "selected", task: str = "", neuronx_cc: str = "", library_version: str = ""
    ) -> list[dict]:
        """Find models and their result on one stack (does each run unmodified on AWS Trainium?).

        Args:
            query: part of a model name; words in any order, case and punctuation ignored ("qwen3 0.6b").
            view: "selected" (the tested models), "trending" or "downloads" (the Hub's rankings, in rank order).
            task: "text-generation" or "image-text-to-text"; "" means all tasks.
            neuronx_cc: compiler version; "" means the newest stack.
            library_version: Transformers version on that compiler; "" means the newest one.

        Returns:
            A list of rows {model_id, result, kind, tp, wall_s, hbm_peak_gb, hbm_capacity_gb, exclusion,
            neuronx_cc, library, library_version, task}; ranked views add rank, downloads, likes and
            trending_score. result is PASS, FAIL, EXCLUDED (see exclusion) or "not tested"; tp is the number
            of Trainium cores, wall_s the wall time in seconds including compilation.
        """
        q = views.normalise(query, view, task, neuronx_cc, library_version)
        return views.select(self.datasets.current(), self.rankings.current(), q).records()

    def lookup(self, model_id: str, neuronx_cc: str = "", library_version: str = "") -> dict:
        """Everything about one model on one stack: the result, how to reproduce it, and its history.

        Args:
            model_id: the Hub id, e.g. "Qwen/Qwen3-0.6B" (case-insensitive).
            neuronx_cc: compiler version; "" means the newest stack.
            library_version: Transformers version on that compiler; "" means the newest one.

        Returns:
            The dataset row (result, tp, wall_s, hbm_peak_gb, error, exclusion, the full stack, tested_at
            in ISO 8601, run_py) plus install_command, cache_sync_command and history (the model on every
            stack, newest first). An unknown model gives {"model_id": ..., "result": "not tested"}.
        """
        return details.lookup(self.datasets.current(), model_id, neuronx_cc, library_version)
