"""The named endpoints: plain JSON answers for programs (gradio_client, MCP, curl).

Each method reads the current snapshot and rankings once, so one answer never mixes two loads.
The docstrings are the endpoints' descriptions in the API page and the MCP schema, and the return
annotations (`answers.py`) describe their fields there. Annotations are evaluated (no
`from __future__ import annotations`): Gradio reads them as types, not strings.
"""

import gradio as gr

from components.queries import architectures, details, views
from components.queries import compare as comparison
from components.sources.rankings import RankingsStore
from components.sources.records import empty_records, hub_id
from components.sources.records_store import RecordsStore
from components.sources.stacks import UnknownStack
from components.sources.store import DatasetStore
from components.web.answers import ArchitectureAnswer, CompareAnswer, LookupAnswer, RowAnswer, StackAnswer
from components.web.arguments import check_arguments

# How long /lookup waits for a live Hub record of an id the records lack (a page never waits).
LOOKUP_WAIT = 3.0


# Gradio reads each line of an Args or Returns entry as its own item, so every description below
# stays on one line, however long: wrapped, it reaches the API page and MCP clients garbled.
@check_arguments  # a string argument sent as a number, list, object or null is a clear error
class Api:
    def __init__(self, datasets: DatasetStore, rankings: RankingsStore, records: RecordsStore | None = None):
        self.datasets = datasets
        self.rankings = rankings
        self.records = records or RecordsStore(empty_records(), live=False)

    def stacks(self) -> list[StackAnswer]:
        """List the tested software stacks, newest first.

        Returns:
            A list of {neuronx_cc, library, library_version, models, passed}: the neuronx-cc compiler version, the library (e.g. transformers) and its version, how many models were run on that stack and how many passed.
        """
        return [s.as_dict() for s in self.datasets.current().stacks]

    def search(
        self, query: str = "", view: str = "selected", task: str = "", neuronx_cc: str = "", library_version: str = ""
    ) -> list[RowAnswer]:
        """Find models and their result on one stack (does each run unmodified on AWS Trainium?).

        Args:
            query: part of a model name; words in any order, case and punctuation ignored ("qwen3 0.6b").
            view: "selected" (the tested models), "trending" or "downloads" (the Hub's rankings, in rank order).
            task: a Hub task (pipeline tag) such as "text-generation", "image-text-to-text" or "text-to-image"; in "selected", "" means all tasks and a model whose task is unknown is listed under all tasks only; "trending" and "downloads" rank one task at a time, as the Hub does, and "" means text-generation.
            neuronx_cc: compiler version ("2.28.7631.0" matches "2.28.7631.0+82129205"); "" means the newest compiler that has the library version asked for.
            library_version: a library version ("4.57.1": the library whose version matches, Transformers first) or LIBRARY==VERSION ("diffusers==0.36.0"); "" means the first stack on that compiler.

        Returns:
            A list of rows {model_id, result, kind, tp, wall_s, hbm_peak_gb, hbm_capacity_gb, exclusion, neuronx_cc, library, library_version, task, architecture} (task and architecture from the model's Hub record, null when unknown); ranked views add rank (unique within an answer), downloads, likes and trending_score (the figure "trending" ranks by; "downloads" ranks by downloads). Counts (tp, wall_s, rank, downloads, likes) are integers. result is PASS, FAIL, EXCLUDED (see exclusion) or "not tested"; tp is the number of Trainium cores, wall_s the wall time in seconds including compilation, hbm_peak_gb the peak device memory against hbm_capacity_gb. A stack not in the data is an error naming the known stacks.
        """
        q = views.normalise(query, view, task, neuronx_cc, library_version)
        try:
            return views.select(self.datasets.current(), self.rankings.current(), q, self.records.current()).records()
        except UnknownStack as unknown:
            raise gr.Error(str(unknown), print_exception=False) from None

    def lookup(self, model_id: str, neuronx_cc: str = "", library_version: str = "") -> LookupAnswer:
        """Everything about one model on one stack: the result, how to reproduce it, and its history.

        Args:
            model_id: the Hub id, e.g. "Qwen/Qwen3-0.6B" (case-insensitive).
            neuronx_cc: compiler version ("2.28.7631.0" matches "2.28.7631.0+82129205"); "" means the newest compiler that has the library version asked for.
            library_version: a library version ("4.57.1": the library whose version matches, Transformers first) or LIBRARY==VERSION ("diffusers==0.36.0"); "" means the first stack on that compiler.

        Returns:
            The dataset row (result, tp, wall_s, hbm_peak_gb, error, exclusion, the full stack, tested_at in ISO 8601, run_py: the exact script) plus task and architecture (from the Hub record, null when unknown; gated, "auto" or "manual", when the Hub gates the files), instance (the smallest trn2 instance for its cores), install_command (pip, pinned to the stack), cache_sync_command (fetches the compiled graphs) and history (the model on every stack, newest first, marking last_pass and first_fail_after_pass). A model with no row on the stack gives {"model_id": ..., "result": "not tested"} plus evidence {base_model: {model_id, result, tp, hops} or null, architecture: {name, tested, passed, closest} or null} on that stack, record_unknown (why the Hub record is unknown, if it is) and, where a passing script of the same architecture can be adapted, suggested_run_py (UNTESTED) with suggested_from (the model whose script was adapted) and suggested_tp; no cache_sync_command, as compiled graphs are per model. A stack not in the data gives result "not tested" with unknown_stack naming the stack asked for and the known ones.
        """
        record = self.records.lookup(model_id, wait=LOOKUP_WAIT) if hub_id(model_id) else None
        snapshot = self.datasets.current()
        unknown = None if record else self.records.why_unknown(str(model_id or ""))
        return details.lookup(snapshot, model_id, neuronx_cc, library_version, self.records.current(), unknown)

    def architectures(
        self, neuronx_cc: str = "", library_version: str = "", task: str = ""
    ) -> list[ArchitectureAnswer]:
        """How each model architecture fares on one stack: how many models of it were tested and passed.

        Args:
            neuronx_cc: compiler version ("2.28.7631.0" matches "2.28.7631.0+82129205"); "" means the newest compiler that has the library version asked for; a stack not in the data is an error naming the known stacks.
            library_version: a library version ("4.57.1": the library whose version matches, Transformers first) or LIBRARY==VERSION ("diffusers==0.36.0"); "" means the first stack on that compiler.
            task: a Hub task (pipeline tag) such as "text-generation"; "" means all tasks.

        Returns:
            A list of {architecture, tested, passed, models}, most tested first: architecture is the model class the Hub record names (e.g. LlamaForCausalLM), tested counts models run on the stack (excluded ones are not), passed those that passed, models lists {model_id, result, tp, num_parameters} smallest first. Models whose Hub record is unknown are left out.
        """
        snapshot = self.datasets.current()
        try:
            stack = snapshot.resolve_stack(neuronx_cc, library_version)
        except UnknownStack as unknown:
            raise gr.Error(str(unknown), print_exception=False) from None
        task_text = str(task or "").strip().lower()
        return architectures.architectures(snapshot, self.records.current(), stack, task_text)

    def compare(
        self, neuronx_cc_a: str = "", library_version_a: str = "", neuronx_cc_b: str = "", library_version_b: str = ""
    ) -> CompareAnswer:
        """Compare two stacks (for an SDK upgrade): which models regressed, were fixed, were added or removed, or changed notably.

        Args:
            neuronx_cc_a: compiler version of stack A, the older one as a rule; "" (with library_version_a "") means the stack just before the newest.
            library_version_a: library version of stack A, plain ("4.57.1") or LIBRARY==VERSION; "" means the first stack on that compiler.
            neuronx_cc_b: compiler version of stack B; "" (with library_version_b "") means the newest stack.
            library_version_b: library version of stack B, plain ("4.57.1") or LIBRARY==VERSION; "" means the first stack on that compiler.

        Returns:
            A dict with stack_a and stack_b (the stacks compared: neuronx_cc, library, library_version, models, passed), thresholds, and six lists of models: regressions (PASS on A, FAIL on B), fixes (FAIL on A, PASS on B), added (run on B only), removed (run on A only), changed (PASS on both with wall time moved by at least 25% and 60 s, peak memory by at least 20% and 1 GB, or a different number of cores; each entry adds reasons) and other_changes (any other change of result, such as PASS to EXCLUDED: an exclusion is a decision, not a regression). Each entry has model_id and, for each side, result, kind, tp, wall_s, hbm_peak_gb, hbm_capacity_gb and exclusion with the suffix _a or _b; a side without a run has result "not tested". A stack compared with itself gives empty lists; a stack not in the data is an error naming the known stacks.
        """
        snapshot = self.datasets.current()
        try:
            stack_a, stack_b = comparison.resolve_pair(
                snapshot, neuronx_cc_a, library_version_a, neuronx_cc_b, library_version_b
            )
        except UnknownStack as unknown:
            raise gr.Error(str(unknown), print_exception=False) from None
        return comparison.compare(snapshot, stack_a, stack_b)
