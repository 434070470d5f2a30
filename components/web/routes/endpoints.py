"""The named endpoints: plain JSON answers for programs (gradio_client, MCP, curl).

Each method reads what the sources serve once (`Sources.now()`), so one answer never mixes two loads.
The docstrings are the endpoints' descriptions in the API page and the MCP schema, and the return
annotations (`queries/answers.py`) describe their fields there. Annotations are evaluated (no
`from __future__ import annotations`): Gradio reads them as types, not strings.
"""

import logging

import gradio as gr

from components.domain.stacks import UnknownStack
from components.queries import architectures, config_check, details, failures, views
from components.queries import compare as comparison
from components.queries.answers import (
    ArchitectureAnswer,
    CompareAnswer,
    ConfigCheckAnswer,
    FailuresAnswer,
    LookupAnswer,
    RowAnswer,
    StackAnswer,
)
from components.sources.moment import Sources
from components.sources.records import hub_id
from components.web.patches.arguments import check_arguments

log = logging.getLogger(__name__)
# How long /lookup waits for a live Hub record of an id the records lack (a page never waits).
LOOKUP_WAIT = 3.0


# Gradio reads each line of an Args or Returns entry as its own item, so every description below
# stays on one line, however long: wrapped, it reaches the API page and MCP clients garbled.
@check_arguments  # a string argument sent as a number, list, object or null is a clear error
class Api:
    def __init__(self, sources: Sources):
        self.sources = sources

    def stacks(self) -> list[StackAnswer]:
        """List the tested software stacks, newest first.

        Returns:
            A list of {neuronx_cc, library, library_version, models, passed}: the neuronx-cc compiler version, the library (e.g. transformers) and its version, how many models were run on that stack and how many passed.
        """
        return [s.as_dict() for s in self.sources.datasets.current().stacks]

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
            A list of rows {model_id, result, kind, tp, wall_s, hbm_peak_gb, hbm_capacity_gb, exclusion, neuronx_cc, library, library_version, task, architecture, num_parameters} (task, architecture and num_parameters, the safetensors parameter count, from the model's Hub record, null when unknown); ranked views add rank (unique within an answer), downloads, likes and trending_score (the figure "trending" ranks by; "downloads" ranks by downloads). Counts (tp, wall_s, rank, downloads, likes) are integers. result is PASS, FAIL, EXCLUDED (see exclusion) or "not tested"; tp is the number of Trainium cores, wall_s the wall time in seconds including compilation, hbm_peak_gb the peak device memory against hbm_capacity_gb. A stack not in the data is an error naming the known stacks.
        """
        q = views.normalise(query, view, task, neuronx_cc, library_version)
        now = self.sources.now()
        try:
            return views.select(now.snapshot, now.rankings, q, now.records).records()
        except UnknownStack as unknown:
            raise gr.Error(str(unknown), print_exception=False) from None

    def lookup(self, model_id: str, neuronx_cc: str = "", library_version: str = "") -> LookupAnswer:
        """Everything about one model on one stack: the result, how to reproduce it, and its history.

        Args:
            model_id: the Hub id, e.g. "Qwen/Qwen3-0.6B" (case-insensitive).
            neuronx_cc: compiler version ("2.28.7631.0" matches "2.28.7631.0+82129205"); "" means the newest compiler that has the library version asked for.
            library_version: a library version ("4.57.1": the library whose version matches, Transformers first) or LIBRARY==VERSION ("diffusers==0.36.0"); "" means the first stack on that compiler.

        Returns:
            The dataset row (result, tp, wall_s, hbm_peak_gb, error, exclusion, the full stack, tested_at in ISO 8601, run_py: the exact script) plus task, architecture and num_parameters (from the Hub record, null when unknown; gated, "auto" or "manual", when the Hub gates the files), instance (the smallest trn2 instance for its cores), install_command (pip, pinned to the stack), cache_sync_command (fetches the compiled graphs) and history (the model on every stack, newest first, marking last_pass and first_fail_after_pass), query_snippet (pandas lines that, run as they are, read the public dataset file by file and return this model's rows on every stack). A model with no row on the stack gives {"model_id": ..., "result": "not tested"} plus evidence {base_model: {model_id, result, tp, hops} or null, architecture: {name, tested, passed, closest} or null} on that stack, expectation {verdict: "likely runs", "likely fails" or "unknown"; basis: "size", "base model", "architecture" or "none", the rule that decided; reason: the evidence named} (an expectation from that evidence, not a result), record_unknown (why the Hub record is unknown, if it is) and, where a passing script of the same architecture can be adapted, suggested_run_py (UNTESTED) with suggested_from (the model whose script was adapted) and suggested_tp; no cache_sync_command, as compiled graphs are per model. A FAIL adds cause {signature, code, summary, docs, shared_with} (its failure reduced as /failures does; shared_with: the other models on the stack that fail the same way) and report_url (a new issue on github.com/aws-neuron/aws-neuron-sdk pre-filled with the model, the pinned stack, the instance, the cause, the error's last lines and, for a regression, the stack it last passed on; at most 8 KB). A stack not in the data gives result "not tested" with unknown_stack naming the stack asked for and the known ones. A model with no row on the stack also gives request_test {url, title, text}: a new discussion on the dataset, filled in to ask for a run of it.
        """
        records = self.sources.records
        record = records.lookup(model_id, wait=LOOKUP_WAIT) if hub_id(model_id) else None
        unknown = None if record else records.why_unknown(str(model_id or ""))
        now = self.sources.now()  # after the wait: the records it may have brought
        return details.lookup(now.snapshot, model_id, neuronx_cc, library_version, now.records, unknown)

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
        now = self.sources.now()
        try:
            stack = now.snapshot.resolve_stack(neuronx_cc, library_version)
        except UnknownStack as unknown:
            raise gr.Error(str(unknown), print_exception=False) from None
        task_text = str(task or "").strip().lower()
        return architectures.architectures(now.snapshot, now.records, stack, task_text)

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
            A dict with stack_a and stack_b (the stacks compared: neuronx_cc, library, library_version, models, passed), thresholds, and six lists of models: regressions (PASS on A, FAIL on B), fixes (FAIL on A, PASS on B), added (run on B only), removed (run on A only), changed (PASS on both with wall time moved by at least 25% and 60 s, peak memory by at least 20% and 1 GB, or a different number of cores; each entry adds reasons) and other_changes (any other change of result, such as PASS to EXCLUDED: an exclusion is a decision, not a regression). Each entry has model_id and, for each side, result, kind, tp, wall_s, hbm_peak_gb, hbm_capacity_gb and exclusion with the suffix _a or _b; a side without a run has result "not tested"; a regression adds cause {signature, code, summary, docs}: its failure on B, reduced as /failures does. A stack compared with itself gives empty lists; a stack not in the data is an error naming the known stacks.
        """
        snapshot = self.sources.datasets.current()
        try:
            stack_a, stack_b = comparison.resolve_pair(
                snapshot, neuronx_cc_a, library_version_a, neuronx_cc_b, library_version_b
            )
        except UnknownStack as unknown:
            raise gr.Error(str(unknown), print_exception=False) from None
        return comparison.compare(snapshot, stack_a, stack_b)

    def failures(self, neuronx_cc: str = "", library_version: str = "") -> FailuresAnswer:
        """Why models fail on one stack: every FAIL grouped by cause, the causes that block the most models first.

        Args:
            neuronx_cc: compiler version ("2.28.7631.0" matches "2.28.7631.0+82129205"); "" means the newest compiler that has the library version asked for; a stack not in the data is an error naming the known stacks.
            library_version: a library version ("4.57.1": the library whose version matches, Transformers first) or LIBRARY==VERSION ("diffusers==0.36.0"); "" means the first stack on that compiler.

        Returns:
            A dict with stack (neuronx_cc, library, library_version, models, passed), failed (how many models FAIL on it) and causes, ordered by count: each {signature, code, summary, docs, count, models, first_seen, fixed_in}. A cause is the error's NCC_ compiler code or NRT_ runtime status where it has one, else its exception type (code; null when the error names none), plus its primary error line with numbers, sizes, core ids, addresses and paths masked (summary; "no error text" when the row has none). signature is a stable versioned id of that reduction (the same failure on another stack has the same one); docs the Neuron documentation of the code, or null; models the model ids it blocks (count of them); first_seen the oldest stack of the same library where it blocked a model; fixed_in the newer stacks of that library where some of its models pass ({neuronx_cc, library, library_version, models}). Every FAIL on the stack is in exactly one cause.
        """
        snapshot = self.sources.now().snapshot
        try:
            stack = snapshot.resolve_stack(neuronx_cc, library_version)
        except UnknownStack as unknown:
            raise gr.Error(str(unknown), print_exception=False) from None
        return failures.failures(snapshot, stack)

    def check_config(self, config_json: str, neuronx_cc: str = "", library_version: str = "") -> ConfigCheckAnswer:
        """What to expect on one stack from a model that is not on the Hub, from the text of its config.json.

        Args:
            config_json: the text of a config.json (a JSON object, at most 1 MB); nothing of it is stored.
            neuronx_cc: compiler version ("2.28.7631.0" matches "2.28.7631.0+82129205"); "" means the newest compiler that has the library version asked for; a stack not in the data is an error naming the known stacks.
            library_version: a library version ("4.57.1": the library whose version matches, Transformers first) or LIBRARY==VERSION ("diffusers==0.36.0"); "" means the first stack on that compiler.

        Returns:
            A dict with architecture (the config's architectures[0], null when it names none), model_type, num_parameters (an ESTIMATE from the config: embeddings, attention with grouped key/value heads, MLP, mixture-of-experts experts, text/vision sub-configs; null when the config lacks the sizes), expectation {verdict: "likely runs", "likely fails" or "unknown"; basis: "size" or "architecture" or "none"; reason}, similar (tested models of that architecture on the stack, closest in size first: {model_id, result, tp, num_parameters}), suggested_run_py (UNTESTED: the closest passing script of the architecture with /path/to/your/model in place of its model id, or null) and suggested_from (the model whose script was adapted). Text that is not a JSON object, nests too deep or is over 1 MB is a clear error.
        """
        now = self.sources.now()
        try:
            stack = now.snapshot.resolve_stack(neuronx_cc, library_version)
            answer = config_check.check_config(now.snapshot, stack, config_json, now.records)
        except UnknownStack as unknown:
            raise gr.Error(str(unknown), print_exception=False) from None
        except config_check.ConfigError as error:
            raise gr.Error(f"config_json: {error}", print_exception=False) from None
        log.info("check_config: %s, %s", answer["architecture"] or "no architecture", answer["expectation"]["verdict"])
        return answer
