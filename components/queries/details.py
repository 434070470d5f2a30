"""One model: its row on a stack, the commands that reproduce it, and its history on every stack."""

from __future__ import annotations

import contextlib
import logging
import re
import shlex
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import cast

import pandas as pd

from components.domain.columns import NAMES, STACK_PACKAGES
from components.domain.errors import UnknownStack
from components.domain.hardware import hardware
from components.domain.results import FAIL, NOT_TESTED, NOT_TESTED_RESULT, PASS, as_kind, generates_text, result_kind
from components.domain.stacks import FIRST_LIBRARY, StackRef, library_name, names_stack, normalise_library
from components.queries import evidence, links, report, snippets
from components.queries.answers import HistoryEntry, LookupAnswer, RanWith, keys
from components.queries.expectation import expectation
from components.queries.formatting import plain
from components.queries.run_request import request_test
from components.sources.rankings import TASKS
from components.sources.records import Records, empty_records, hub_id
from components.sources.snapshot import Snapshot, Stack

NEFF_BUCKET = "hf://buckets/aws-neuron/torch-neuronx-neff-cache"
RUN_COMMAND = "python3 run.py"  # a sharded script starts its own ranks: no torchrun
NEFF_CACHE_DIR = "/tmp/neff_cache"  # TorchNeuron's default TORCH_NEURONX_NEFF_CACHE_DIR
# What the cache command needs to work as pasted (flags checked against `hf buckets sync --help`):
# `hf buckets` came with huggingface_hub 1.5.0, and the command takes a whole compiler version's cache.
CACHE_SYNC_NOTES = (
    'Needs huggingface_hub 1.5 or newer, which added "hf buckets": pip install -U "huggingface_hub>=1.5"',
    "To see the size first, run the same command with --dry-run: it prints the plan as JSON lines (the first "
    "line's summary has total_size in bytes) and downloads nothing.",
    f"TorchNeuron reads its compiled graphs from TORCH_NEURONX_NEFF_CACHE_DIR (default {NEFF_CACHE_DIR}), where "
    "the command writes them: the synced folder is used as it is.",
)
# Libraries the harness runs beyond Transformers, installed from PyPI by their own names.
KNOWN_LIBRARIES = ("diffusers", "sentence-transformers")
PIP_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,80}")
log = logging.getLogger(__name__)
# Inside `shared()`, a tested model's answer, by (snapshot, records, model, stack): made once however many parts of
# one page ask for it.
_SHARED: ContextVar[dict[tuple, LookupAnswer] | None] = ContextVar("details_shared", default=None)
_warned: set[str] = set()
NEURON_PIP_INDEX = "https://pip.repos.neuron.amazonaws.com"
# What a history entry takes from the row; the rest of `HistoryEntry` is worked out here.
HISTORY_FIELDS = tuple(k for k in keys(HistoryEntry) if k not in ("kind", "last_pass", "first_fail_after_pass"))


def cache_sync_command(neuronx_cc: str) -> str:
    """The command that fetches the compiled graphs (NEFFs) of one compiler version."""
    return f"hf buckets sync {shlex.quote(f'{NEFF_BUCKET}/neuronxcc-{neuronx_cc}')} {NEFF_CACHE_DIR}"


def install_command(row: Mapping[str, object]) -> str:
    """`pip install` pinned to the stack a row was tested on: the Neuron packages, and the library the
    stack is named by (Transformers, Diffusers, Sentence Transformers, ...); packages the row does not
    name are left out."""
    pins = []
    library = normalise_library(str(row.get("library") or ""))
    for column, package in STACK_PACKAGES:
        version = row.get(column)
        if version is None and column == library:
            version = row.get("library_version")
        if version:
            pins.append(f"{package}=={version}")
    if library and library != FIRST_LIBRARY and row.get("library_version"):
        named = PIP_NAME.fullmatch(library) is not None
        if library not in KNOWN_LIBRARIES and library not in _warned:
            _warned.add(library)  # once per library, not once per row shown
            how = "pins it by its name" if named else "leaves it out (not a pip package name)"
            log.warning("library %r has no known install recipe: the install line %s", library, how)
        if named:
            pins.append(f"{library}=={row['library_version']}")
    if not pins:
        return ""
    return f"pip install --extra-index-url {NEURON_PIP_INDEX} " + " ".join(shlex.quote(p) for p in pins)


def history_columns(snapshot: Snapshot) -> tuple[pd.api.extensions.ExtensionArray, ...]:
    """The history's columns (`Snapshot.columns`): a model's few rows are read by position, not through a
    copy of the frame's rows (pandas' `iloc` on every column cost a model link ~3 ms, most of its first HTML)."""
    arrays = snapshot.columns()
    return tuple(arrays[k] for k in HISTORY_FIELDS)


def history(snapshot: Snapshot, model_id: str) -> list[HistoryEntry]:
    """The model on every stack, newest stack first; marks where it last passed and where it
    first failed after that (`last_pass`, `first_fail_after_pass`)."""
    rank = {s.ref: i for i, s in enumerate(snapshot.stacks)}
    columns = history_columns(snapshot)
    entries: list[HistoryEntry] = []
    for position in snapshot.model_positions(model_id).tolist():
        # HISTORY_FIELDS are HistoryEntry's keys; the marks are set below
        entry = cast(HistoryEntry, {k: plain(column[position]) for k, column in zip(HISTORY_FIELDS, columns)})
        entry["kind"] = as_kind(snapshot.kind[position])
        entries.append(entry)
    entries.sort(key=lambda e: rank.get(StackRef.of(e), len(rank)))
    last_pass = next((i for i, e in enumerate(entries) if e["kind"] == PASS), None)
    first_fail = None
    if last_pass is not None:
        newer_fails = [i for i in range(last_pass) if entries[i]["kind"] == FAIL]
        first_fail = newer_fails[-1] if newer_fails else None
    for i, e in enumerate(entries):
        e["last_pass"] = i == last_pass
        e["first_fail_after_pass"] = i == first_fail
    return entries


def lookup(
    snapshot: Snapshot,
    model_id: str,
    neuronx_cc: str = "",
    library_version: str = "",
    records: Records | None = None,
    record_unknown: str | None = None,
) -> LookupAnswer:
    """The model's row on the stack asked for (none named: the model's own, `Snapshot.model_stack`) with
    install and cache commands, its history, and from its Hub record (`records`) its task and architecture;
    a tested row adds the smallest trn2 `instance` for its cores, and a FAIL its `cause` and `report_url`.
    An unknown stack gives a `not tested` answer naming the stack asked for in `unknown_stack` (never
    another stack's row). A model with no row gives `result: "not tested"` with the
    `evidence` (its base model's and its architecture's results on the stack) and, where a tested
    script can be adapted, `suggested_run_py` and `suggested_from`; `record_unknown` says why the
    model's Hub record is unknown, if it is."""
    asked = " ".join(str(model_id or "").split())
    canonical = snapshot.canonical_model_id(asked)
    try:
        stack = (
            snapshot.resolve_stack(neuronx_cc, library_version)
            if names_stack(neuronx_cc, library_version)
            else snapshot.model_stack(canonical)
        )
    except UnknownStack as unknown:
        # never another stack's answer: a CI job gating an upgrade must not read a PASS it did not ask for
        answer: LookupAnswer = {
            "model_id": canonical or asked,
            "result": NOT_TESTED_RESULT,
            "kind": NOT_TESTED,
            "neuronx_cc": unknown.neuronx_cc,
            "library_version": unknown.library_version,
            "unknown_stack": str(unknown),
            **_record_fields(records, canonical or asked),
        }
        if record_unknown and (records is None or records.get(canonical or asked) is None):
            answer["record_unknown"] = record_unknown
        if canonical:
            answer["history"] = history(snapshot, canonical)
        answer.update(_query_snippet(canonical or hub_id(asked)))
        return answer
    position = snapshot.row_for(canonical, stack) if stack and canonical else None
    if position is None or not stack or not canonical:
        answer = _not_tested(snapshot, canonical or asked, stack, records, record_unknown, known=canonical is not None)
        answer.update(_query_snippet(canonical or hub_id(asked)))
        return answer
    kept = _SHARED.get()
    if kept is None:
        return _tested(snapshot, canonical, stack, position, records)
    key = (snapshot, records, canonical, stack.ref)  # the data by identity: the block holds it while it lasts
    if key not in kept:
        kept[key] = _tested(snapshot, canonical, stack, position, records)
    return cast(LookupAnswer, dict(kept[key]))  # each caller its own dict (no caller changes what it holds)


@contextlib.contextmanager
def shared() -> Iterator[None]:
    """Within this block, a tested model's `lookup` is made once, whichever part of a page asks (a link's first
    HTML paints its model and fills its live page's panel: issue 48). What is kept dies with the block."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def _tested(snapshot: Snapshot, canonical: str, stack: Stack, position: int, records: Records | None) -> LookupAnswer:
    """A tested model's answer: its row on `stack` (at `position`) with its commands, record and history."""
    row = snapshot.record(position)
    # the row's columns are the documented ones (LookupAnswer's) and any a newer dataset adds
    answer = cast(
        LookupAnswer, {name: plain(value) for name, value in row.items() if name in NAMES or not name.startswith("_")}
    )
    answer["kind"] = result_kind(answer.get("result"), answer.get("exclusion"))
    answer["install_command"] = install_command(answer)
    answer["cache_sync_command"] = cache_sync_command(answer.get("neuronx_cc") or "")
    answer["cache_sync_notes"] = list(CACHE_SYNC_NOTES)
    answer.update(_record_fields(records, canonical))
    instance = hardware().smallest_instance(answer.get("tp"))
    answer["instance"] = instance.name if instance else None
    answer["history"] = history(snapshot, canonical)
    # a FAIL names its cause and a pre-filled bug report (see failures.py, report.py)
    answer.update(report.fail_fields(snapshot, stack, canonical, answer, links.space_url()))
    answer["query_snippet"] = snippets.model_snippet(canonical)  # this model on every stack, from the dataset
    return answer


def _not_tested(
    snapshot: Snapshot,
    model_id: str,
    stack: Stack | None,
    records: Records | None,
    record_unknown: str | None,
    known: bool,
) -> LookupAnswer:
    answer: LookupAnswer = {"model_id": model_id, "result": NOT_TESTED_RESULT, "kind": NOT_TESTED}
    if stack:
        answer["neuronx_cc"] = stack.neuronx_cc
        answer["library"] = stack.library
        answer["library_version"] = stack.library_version
    records = records if records is not None else empty_records()
    record = records.get(model_id)
    answer.update(_record_fields(records, model_id))
    if record is None and record_unknown:
        answer["record_unknown"] = record_unknown
    ran_with = _ran_with(snapshot, model_id, stack) if known and stack else None
    if ran_with is not None and stack is not None:
        # not a gap in the data: this library does not run this model (a text model with diffusers), so no test
        # is asked for and no evidence of this stack is weighed (its architecture has no models here)
        answer["ran_with"] = ran_with
        answer["evidence"] = {"base_model": None, "architecture": None}
        answer["expectation"] = {
            "verdict": "unknown",
            "basis": "library",
            "reason": f"it was run with {library_name(ran_with['library'])}, not {library_name(stack.library)}: its answer is "
            f"{ran_with['result']} on {StackRef.of(ran_with).label}",
        }
        answer["history"] = history(snapshot, model_id)
        return answer
    if stack:
        base = evidence.base_model_evidence(snapshot, records, stack, model_id)
        answer["evidence"] = {
            "base_model": base,
            "architecture": evidence.architecture_evidence(snapshot, records, stack, record),
        }
        answer["expectation"] = expectation(snapshot, records, stack, record, answer["evidence"])
        prefer = base["model_id"] if base else None
        suggestion = evidence.suggest_run_py(snapshot, records, stack, model_id, record, prefer)
        answer.update(suggestion)
        position = snapshot.row_for(suggestion["suggested_from"], stack) if "suggested_from" in suggestion else None
        if position is not None:
            source = snapshot.record(position)
            answer["install_command"] = install_command({k: plain(v) for k, v in source.items()})
    if known:
        answer["history"] = history(snapshot, model_id)
    # a model that generates text (the tasks the Hub ranks) is run with Transformers: never asked of diffusers
    text_model = record is not None and record.task in TASKS
    asking = (
        None if stack is not None and text_model and not generates_text(stack.library) else request_test(answer, record)
    )
    if asking:
        answer["request_test"] = asking  # where to ask for a run, and the text to ask with
    return answer


def _ran_with(snapshot: Snapshot, model_id: str, stack: Stack) -> RanWith | None:
    """A model that ran, but never with `stack`'s library: its answer on its own stack (`Snapshot.model_stack`);
    None when it ran with that library on some stack (then `stack` is a gap the evidence speaks to)."""
    libraries = {normalise_library(e["library"]) for e in history(snapshot, model_id)}
    if not libraries or normalise_library(stack.library) in libraries:
        return None
    own = snapshot.model_stack(model_id)
    position = snapshot.row_for(model_id, own) if own is not None else None
    if own is None or position is None:
        return None
    return {
        **own.ref.as_dict(),
        "result": plain(snapshot.rows["result"].iat[position]),
        "kind": as_kind(snapshot.kind[position]),
        "link": links.model_on_stack(model_id, own),
    }


def _query_snippet(model_id: str | None) -> LookupAnswer:
    """{query_snippet} for a model in the data or a well-formed Hub id; nothing for any other text."""
    return {"query_snippet": snippets.model_snippet(model_id)} if model_id else {}


def _record_fields(records: Records | None, model_id: str) -> LookupAnswer:
    record = records.get(model_id) if records is not None else None
    fields: LookupAnswer = {
        "task": record.task if record else None,
        "architecture": record.architecture if record else None,
        "num_parameters": record.num_parameters if record else None,
    }
    if record and record.gated:
        fields["gated"] = record.gated  # the Hub asks people to accept its terms before downloading
    return fields
