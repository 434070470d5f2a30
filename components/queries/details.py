"""One model: its row on a stack, the commands that reproduce it, and its history on every stack."""

from __future__ import annotations

import shlex

from components.queries.formatting import plain
from components.sources.columns import NAMES, STACK_KEY, STACK_PACKAGES
from components.sources.results import FAIL, NOT_TESTED, NOT_TESTED_RESULT, PASS, result_kind
from components.sources.snapshot import Snapshot
from components.sources.stacks import UnknownStack

NEFF_BUCKET = "hf://buckets/aws-neuron/torch-neuronx-neff-cache"
NEURON_PIP_INDEX = "https://pip.repos.neuron.amazonaws.com"
HISTORY_FIELDS = (
    "neuronx_cc", "library", "library_version", "result", "tp", "wall_s", "hbm_peak_gb", "hbm_capacity_gb",
    "exclusion", "tested_at",
)  # fmt: skip


def cache_sync_command(neuronx_cc: str) -> str:
    """The command that fetches the compiled graphs (NEFFs) of one compiler version."""
    return f"hf buckets sync {shlex.quote(f'{NEFF_BUCKET}/neuronxcc-{neuronx_cc}')} /tmp/neff_cache"


def install_command(row: dict) -> str:
    """`pip install` pinned to the stack a row was tested on; packages the row does not name are left out."""
    pins = []
    for column, package in STACK_PACKAGES:
        version = row.get(column)
        if version is None and column == "transformers" and row.get("library") == "transformers":
            version = row.get("library_version")
        if version:
            pins.append(shlex.quote(f"{package}=={version}"))
    if not pins:
        return ""
    return f"pip install --extra-index-url {NEURON_PIP_INDEX} " + " ".join(pins)


def history(snapshot: Snapshot, model_id: str) -> list[dict]:
    """The model on every stack, newest stack first; marks where it last passed and where it
    first failed after that (`last_pass`, `first_fail_after_pass`)."""
    rank = {s.key: i for i, s in enumerate(snapshot.stacks)}
    positions = snapshot.model_positions(model_id)
    rows = snapshot.rows.iloc[positions]
    entries = []
    for position, row in zip(positions, rows[list(HISTORY_FIELDS)].itertuples(index=False)):
        entry = {k: plain(v) for k, v in zip(HISTORY_FIELDS, row)}
        entry["kind"] = str(snapshot.kind[position])
        entries.append(entry)
    entries.sort(key=lambda e: rank.get(tuple(e[k] for k in STACK_KEY), len(rank)))
    last_pass = next((i for i, e in enumerate(entries) if e["kind"] == PASS), None)
    first_fail = None
    if last_pass is not None:
        newer_fails = [i for i in range(last_pass) if entries[i]["kind"] == FAIL]
        first_fail = newer_fails[-1] if newer_fails else None
    for i, e in enumerate(entries):
        e["last_pass"] = i == last_pass
        e["first_fail_after_pass"] = i == first_fail
    return entries


def lookup(snapshot: Snapshot, model_id: str, neuronx_cc: str = "", library_version: str = "") -> dict:
    """The model's row on the chosen stack (default: newest) with install and cache commands and its
    history; an unknown model gives `{"model_id": ..., "result": "not tested"}`, and an unknown stack a
    `not tested` answer that names the stack asked for in `unknown_stack` (never another stack's row)."""
    asked = " ".join(str(model_id or "").split())
    canonical = snapshot.canonical_model_id(asked)
    if canonical is None:
        return {"model_id": asked, "result": NOT_TESTED_RESULT, "kind": NOT_TESTED}
    try:
        stack = snapshot.resolve_stack(neuronx_cc, library_version)
    except UnknownStack as unknown:
        return {
            "model_id": canonical,
            "result": NOT_TESTED_RESULT,
            "kind": NOT_TESTED,
            "neuronx_cc": unknown.neuronx_cc,
            "library_version": unknown.library_version,
            "unknown_stack": str(unknown),
            "history": history(snapshot, canonical),
        }
    position = snapshot.row_for(canonical, stack) if stack else None
    past = history(snapshot, canonical)
    if position is None:
        answer = {"model_id": canonical, "result": NOT_TESTED_RESULT, "kind": NOT_TESTED}
        if stack:
            answer.update(neuronx_cc=stack.neuronx_cc, library=stack.library, library_version=stack.library_version)
        answer["history"] = past
        return answer
    row = snapshot.record(position)
    answer = {name: plain(value) for name, value in row.items() if name in NAMES or not name.startswith("_")}
    answer["kind"] = result_kind(answer.get("result"), answer.get("exclusion"))
    answer["install_command"] = install_command(answer)
    answer["cache_sync_command"] = cache_sync_command(answer["neuronx_cc"])
    answer["history"] = past
    return answer
