"""The shapes of the endpoints' answers, declared once, each field with its one-line description.

The builders (`views`, `details`, `evidence`, `compare`, `architectures`, `failures`) return these types,
the field lists of the views and exports are read from them, and the endpoints (`queries/api.py`)
name them as their return annotations: Gradio reads those to publish each answer's field types on the
API page (`/gradio_api/info`) and to MCP clients. Each field is `Annotated[type, "description"]`; Gradio
and `typing.get_type_hints` see the plain type, `describe()` the description, and `returns()` turns a
type into the "Returns:" lines of an endpoint's documentation, so no field is described twice.
`tests/queries/test_answers.py` holds every endpoint's answers to their declared type, key for key.

`total=False` marks answers whose keys depend on the case (a model with or without a row, a ranked
view); every value is plain JSON (`None` is null), counts are integers. The TypedDicts are
`typing_extensions`' (pydantic's `TypeAdapter` reads only those on Python 3.11). Annotations are
evaluated (no `from __future__ import annotations`): Gradio reads them as types, not strings.
"""

import typing
from typing import Annotated, Literal, cast

from typing_extensions import TypedDict, is_typeddict

from components.domain.results import KindName
from components.domain.stacks import Library, LibraryVersion, NeuronxCc, StackAnswer, StackRefAnswer
from components.queries import table_columns

__all__ = [
    "ArchitectureAnswer",
    "ArchitectureEvidence",
    "ArchitectureModel",
    "BaseModelEvidence",
    "CauseAnswer",
    "ColumnFields",
    "CompareAnswer",
    "ComparedModel",
    "ConfigCheckAnswer",
    "Evidence",
    "Expectation",
    "FailureCause",
    "FailuresAnswer",
    "FixedIn",
    "GridAnswer",
    "GridCell",
    "GridRow",
    "GridStack",
    "HistoryEntry",
    "LookupAnswer",
    "ModelCause",
    "ModelOnStack",
    "RanWith",
    "RankFields",
    "RecentFields",
    "RequestTest",
    "RowAnswer",
    "StackAnswer",
    "StackRefAnswer",
    "Suggestion",
    "ThresholdsAnswer",
    "UncheckedModel",
    "WantedAnswer",
    "WantedModel",
    "describe",
    "keys",
    "returns",
    "shapes",
]


def keys(shape: type) -> tuple[str, ...]:
    """The keys a TypedDict declares, its bases' first, in declaration order."""
    return tuple(shape.__annotations__)


def describe(shape: type) -> dict[str, str]:
    """Each key of the TypedDict `shape` (its bases' first) and its one-line description."""
    hints = typing.get_type_hints(shape, include_extras=True)
    return {key: _description(hints[key], f"{shape.__name__}.{key}") for key in keys(shape)}


def _description(hint: object, where: str) -> str:
    texts = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, str)]
    if not texts:
        raise TypeError(f"{where} has no description: declare it Annotated[type, 'what it is']")
    return texts[0]


def shapes() -> dict[str, type]:
    """Every answer type this module declares, by name."""
    return {name: value for name in __all__ if is_typeddict(value := globals()[name])}


def returns(shape: object) -> list[str]:
    """The "Returns:" lines of an endpoint answering `shape` (a TypedDict or a list of one): one line per
    top-level key, `key: description`, a nested answer's keys in braces on the same line (the first time;
    later, "as in" the key that described them). Gradio reads each line of Returns as its own item, so
    no line is ever wrapped."""
    return [f"{key}: {text}" for key, text in _fields(_inner(shape), {})]


def _inner(hint: object) -> type:
    """The TypedDict inside `hint` (X, list[X], X | None); raises TypeError when there is none."""
    if is_typeddict(hint):
        return cast(type, hint)  # typing_extensions' is_typeddict does not narrow
    for arg in typing.get_args(hint):
        if arg is not type(None):
            try:
                return _inner(arg)
            except TypeError:
                continue
    raise TypeError(f"{hint} holds no answer type")


def _fields(shape: type, seen: dict[type, str]) -> list[tuple[str, str]]:
    """(key, description) of `shape`, nested answers spelt out once; `seen`: nested type → the key that did."""
    hints = typing.get_type_hints(shape, include_extras=True)
    found = []
    for key, text in describe(shape).items():
        try:
            nested = _inner(typing.get_args(hints[key])[0])
        except TypeError:
            found.append((key, text))
            continue
        if nested in seen:
            found.append((key, f"{text} {{as in {seen[nested]}}}"))
            continue
        seen[nested] = key
        found.append((key, f"{text} {{{'; '.join(f'{k}: {t}' for k, t in _fields(nested, seen))}}}"))
    return found


# ---- fields several answers share: described once ----------------------------------------------

ModelId = Annotated[str, "the Hub id, e.g. Qwen/Qwen3-0.6B"]
Result = Annotated[
    str,
    'the result as the dataset records it (PASS, FAIL, EXCLUDED, or whatever a newer file writes), or "not tested"; read kind for what it means',
]
# the app's own vocabulary (`domain/results.py`), an enum: pydantic writes it into the OpenAPI document
Kind = Annotated[
    KindName,
    'what the result means: "pass", "fail", "excluded", "not tested" or "other" (a result the app does not know)',
]
Cores = Annotated[int | None, "the number of Trainium cores the model was sharded over"]
WallTime = Annotated[int | None, "wall time of the run in seconds, compilation included"]
PeakMemory = Annotated[float | None, "peak device memory (HBM) in GB"]
Capacity = Annotated[float | None, "the device memory (HBM) of the cores used, in GB"]
Exclusion = Annotated[str | None, "why the model was deliberately not tested, or null"]
Parameters = Annotated[int | None, "the parameter count from the Hub record (safetensors.total), null when unknown"]
ModelIds = Annotated[list[str], "model ids"]


class ModelOnStack(TypedDict, total=False):
    """What /search and /lookup both say of one model on one stack."""

    model_id: ModelId
    result: Result
    kind: Kind
    tp: Cores
    wall_s: WallTime
    hbm_peak_gb: PeakMemory
    hbm_capacity_gb: Capacity
    exclusion: Exclusion
    neuronx_cc: Annotated[str | None, "the neuronx-cc version of the stack answered for"]
    library: Annotated[str | None, "the library of the stack answered for"]
    library_version: Annotated[str | None, "the library version of the stack answered for"]
    task: Annotated[str | None, "the Hub task (pipeline tag) from the model's Hub record, null when unknown"]
    architecture: Annotated[
        str | None, "the model class its Hub record names (e.g. LlamaForCausalLM), null when unknown"
    ]
    num_parameters: Annotated[
        int | None, "the parameter count from the model's Hub record (safetensors total), null when unknown"
    ]


class RankFields(TypedDict, total=False):
    """What a ranking says of a model: its rank in the view, and the Hub's counts."""

    rank: Annotated[int | None, "its place in the Hub's ranking of the view (unique within an answer)"]
    downloads: Annotated[int | None, "the Hub's download count"]
    likes: Annotated[int | None, "the Hub's like count"]
    trending_score: Annotated[float | None, 'the Hub\'s trending score (what "trending" ranks by)']


if typing.TYPE_CHECKING:

    class ColumnFields(TypedDict, total=False):
        """The fields the table's column registry declares (`table_columns`), typed when the module runs."""

else:  # made from the registry: a column added there is a field of /search's rows, of the exports and of OpenAPI
    ColumnFields = TypedDict("ColumnFields", table_columns.own_fields(), total=False)
    ColumnFields.__doc__ = "The fields the table's column registry declares (`table_columns`)."


class RecentFields(TypedDict, total=False):
    """What the Recently tested view says of a row: when it was run, the view's order."""

    tested_at: Annotated[
        str | None, "when it was run, ISO 8601 (the recent view; null where an older file does not record it)"
    ]


class RowAnswer(ModelOnStack, ColumnFields, RankFields, RecentFields, total=False):
    """One model on one stack, as /search lists it (ranked views add rank, likes, trending_score; the recent view
    tested_at)."""


class HistoryEntry(TypedDict):
    """The model on one stack, in /lookup's history."""

    neuronx_cc: NeuronxCc
    library: Library
    library_version: LibraryVersion
    result: Result
    tp: Cores
    wall_s: WallTime
    hbm_peak_gb: PeakMemory
    hbm_capacity_gb: Capacity
    exclusion: Exclusion
    tested_at: Annotated[str | None, "when it was run, ISO 8601"]
    kind: Kind
    last_pass: Annotated[bool, "true on the newest stack where it passed"]
    first_fail_after_pass: Annotated[bool, "true on the first stack where it failed after that pass"]


class ArchitectureModel(TypedDict):
    """A tested model of an architecture."""

    model_id: ModelId
    result: Result
    kind: Kind
    tp: Cores
    num_parameters: Parameters


class ArchitectureAnswer(TypedDict):
    """One architecture on one stack."""

    architecture: Annotated[str, "the model class the Hub records name, e.g. LlamaForCausalLM"]
    tested: Annotated[int, "how many models of it were run on the stack (excluded ones are not)"]
    passed: Annotated[int, "how many of them passed"]
    models: Annotated[list[ArchitectureModel], "its models on the stack, smallest first"]


# what a grid cell says, an enum: pydantic writes it into the OpenAPI document
GridStatus = Literal["pass", "fail", "partial", "untested"]


class GridStack(TypedDict):
    """A stack of the grid's library (a column of the grid)."""

    neuronx_cc: NeuronxCc
    library_version: LibraryVersion


class GridCell(TypedDict):
    """An architecture on one stack: each of its models counted once, by its newest run there."""

    status: Annotated[
        GridStatus,
        '"pass" (a PASS and no FAIL), "fail" (a FAIL and no PASS), "partial" (both) or "untested" (neither: excluded and other results set no status)',
    ]
    passed: Annotated[int, "how many of its models passed"]
    failed: Annotated[int, "how many failed"]
    excluded: Annotated[int, "how many were deliberately not tested"]
    other: Annotated[int, "how many have any other result"]
    regressed: Annotated[int, "how many fail here and passed on the nearest older stack where they passed or failed"]


class GridRow(TypedDict):
    """One architecture across the library's stacks."""

    architecture: Annotated[str, "the model class the Hub records name, e.g. LlamaForCausalLM"]
    models: Annotated[int, "how many distinct models of it have a run on any of the stacks"]
    cells: Annotated[list[GridCell], "one per stack, in the order of stacks"]
    works_since: Annotated[
        GridStack | None,
        "when its newest tested cell passes: the oldest stack of the unbroken run of passing cells reaching it (untested cells skipped); else null",
    ]
    regressed_since: Annotated[
        GridStack | None,
        "of its models that fail on its newest tested stack and passed on an older one, the oldest stack where such a model's unbroken run of FAILs began; null when none",
    ]


class GridAnswer(TypedDict):
    """Every architecture of one library across its stacks."""

    library: Annotated[str, "the library of the stacks (pip's spelling)"]
    task: Annotated[str, 'the task counted ("" for all)']
    stacks: Annotated[list[GridStack], "the library's stacks, oldest first"]
    unknown_architecture_models: Annotated[int, "models left out because their architecture is unknown"]
    rows: Annotated[list[GridRow], "one per architecture, most models first"]


class BaseModelEvidence(TypedDict):
    """The nearest base model with a row on the stack, `hops` steps up the base_model chain."""

    model_id: Annotated[str, "the base model's Hub id"]
    result: Result
    kind: Kind
    tp: Cores
    hops: Annotated[int, "how many steps up the base_model chain of Hub records it is"]


class ArchitectureEvidence(TypedDict):
    """The model's architecture on the stack, and the tested models of it closest in size."""

    name: Annotated[str, "the architecture, e.g. LlamaForCausalLM"]
    tested: Annotated[int, "how many models of it were run on the stack (0 when none)"]
    passed: Annotated[int, "how many of them passed"]
    closest: Annotated[list[ArchitectureModel], "the tested models of it closest in size"]


class Evidence(TypedDict):
    """What the stack says about an untested model."""

    base_model: Annotated[BaseModelEvidence | None, "its nearest base model with a run on the stack, or null"]
    architecture: Annotated[ArchitectureEvidence | None, "its architecture's record on the stack, or null"]


class Suggestion(TypedDict, total=False):
    """A run.py adapted from a tested script (UNTESTED), or a note saying why there is none."""

    suggested_run_py: Annotated[str, "a passing script of the same architecture adapted to this model (UNTESTED)"]
    suggested_from: Annotated[str, "the tested model whose script was adapted"]
    suggested_tp: Annotated[int, "the cores the suggested script shards over"]
    suggested_note: Annotated[str, "why no script is suggested"]


class CauseAnswer(TypedDict):
    """What a FAIL's error reduces to (see /failures)."""

    signature: Annotated[
        str, "a stable, versioned id of the reduction: the same failure on another stack has the same one"
    ]
    code: Annotated[
        str | None,
        "the error's NCC_ compiler code or NRT_ runtime status, else its exception type; null when it names none",
    ]
    summary: Annotated[
        str,
        'its primary error line with numbers, sizes, core ids, addresses and paths masked ("no error text" when there is none)',
    ]
    example: Annotated[
        str,
        "that line as a model's error wrote it, unmasked (the first blocked model's; a model's own in its lookup)",
    ]
    docs: Annotated[str | None, "the Neuron documentation page of the code, or null"]


class ModelCause(CauseAnswer):
    """A failed model's cause on its stack, with the other models it blocks there."""

    shared_with: Annotated[list[str], "the other models on the stack that fail the same way"]


class FixedIn(StackRefAnswer):
    """A newer stack where some models of a cause pass."""

    models: Annotated[list[str], "the cause's models that pass there"]


class FailureCause(CauseAnswer):
    """One cause of failure on a stack and the models it blocks."""

    count: Annotated[int, "how many models it blocks on the stack"]
    models: Annotated[list[str], "the model ids it blocks"]
    first_seen: Annotated[StackRefAnswer, "the oldest stack of the same library where it blocked a model"]
    fixed_in: Annotated[list[FixedIn], "the newer stacks of that library where some of its models pass"]


class FailuresAnswer(TypedDict):
    """Every FAIL on one stack, grouped by cause."""

    stack: Annotated[StackAnswer | None, "the stack answered for"]
    failed: Annotated[int, "how many models FAIL on it"]
    causes: Annotated[list[FailureCause], "the causes, most models blocked first; every FAIL is in exactly one"]


class RequestTest(TypedDict):
    """Where to ask for a run of an untested model (a new discussion on the dataset), and the text to ask with."""

    url: Annotated[str, "a new discussion on the dataset's Hub page"]
    title: Annotated[str, "its title"]
    text: Annotated[str, "its text, filled in with the model and the evidence"]


class RanWith(TypedDict):
    """Where a model that ran with another library than the stack's answers: its own stack and result there."""

    neuronx_cc: NeuronxCc
    library: Library
    library_version: LibraryVersion
    result: Result
    kind: Kind
    link: Annotated[str, "the Models page's query string (without ?) that opens the model on that stack"]


class Expectation(TypedDict):
    """What to expect from a model with no row on the stack: never a result (that stays "not tested")."""

    verdict: Annotated[str, '"likely runs", "likely fails" or "unknown"']
    basis: Annotated[
        str,
        'the rule that decided: "size", "base model", "architecture", "library" (it ran with another library) or "none"',
    ]
    reason: Annotated[str, "the evidence named"]


class LookupAnswer(ModelOnStack, Suggestion, total=False):
    """Everything about one model on one stack; which keys are present depends on the case.

    A tested row carries every dataset column (`columns.COLUMNS`); a column a newer dataset adds and
    the app does not know yet is passed through as it is."""

    runner: Annotated[str | None, "how it was run: single-core, tensor-parallel or expert-parallel"]
    notes: Annotated[str | None, "the harness's notes on the run"]
    error: Annotated[str | None, "the error of a failed run, often a traceback"]
    cpu_match: Annotated[str | None, "how the output compared with a CPU run of the same checkpoint (one core)"]
    english: Annotated[str | None, "the judge model's verdict on the generated text (sharded runs)"]
    transformers: Annotated[str | None, "the stack's transformers version"]
    diffusers: Annotated[str | None, "the stack's diffusers version"]
    sentence_transformers: Annotated[str | None, "the stack's sentence-transformers version"]
    accelerate: Annotated[str | None, "the stack's accelerate version"]
    torch_neuronx: Annotated[str | None, "the stack's torch-neuronx version"]
    torch: Annotated[str | None, "the stack's torch version"]
    nki: Annotated[str | None, "the stack's nki version"]
    python: Annotated[str | None, "the stack's Python version"]
    neuron_driver: Annotated[str | None, "the stack's Neuron driver version"]
    tested_at: Annotated[str | None, "when it was run, ISO 8601"]
    run_py: Annotated[str | None, "the exact script that was run"]
    gated: Annotated[str, '"auto" or "manual" when the Hub gates the model\'s files']
    instance: Annotated[str | None, "the smallest trn2 instance for its cores"]
    install_command: Annotated[str, "pip install of the stack's packages, pinned"]
    cache_sync_command: Annotated[str, "fetches the graphs the run compiled (not for an untested model)"]
    cache_sync_notes: Annotated[
        list[str],
        "what cache_sync_command needs: huggingface_hub>=1.5 (which added hf buckets), --dry-run to print the plan and its size first, and TORCH_NEURONX_NEFF_CACHE_DIR (default /tmp/neff_cache), where TorchNeuron reads the graphs",
    ]
    history: Annotated[list[HistoryEntry], "the model on every stack, newest first"]
    evidence: Annotated[Evidence, "a model with no row on the stack: what the stack says about it"]
    record_unknown: Annotated[str, "why the model's Hub record is unknown, when it is"]
    unknown_stack: Annotated[
        str, 'a stack not in the data: the stack asked for and the known ones (result "not tested")'
    ]
    cause: Annotated[ModelCause, "a FAIL: its failure, reduced as /failures does"]
    report_url: Annotated[
        str,
        "a FAIL: a new issue on github.com/aws-neuron/aws-neuron-sdk pre-filled with the model, the pinned stack, the instance, the cause, the error's last lines and, for a regression, the stack it last passed on",
    ]
    request_test: Annotated[
        RequestTest,
        "a model with no row on the stack: how to ask for a run of it (not when it ran with another library)",
    ]
    ran_with: Annotated[
        RanWith, "a model with no row on a stack of another library than its own: its answer on its own stack"
    ]
    expectation: Annotated[
        Expectation, "a model with no row on the stack: what to expect from the evidence (an expectation, not a result)"
    ]
    query_snippet: Annotated[
        str,
        "pandas lines that, run as they are, read the public dataset file by file (whatever columns a file lacks) and return this model's rows on every stack",
    ]


class ConfigCheckAnswer(TypedDict):
    """What to expect from a model described only by its config.json (/check_config)."""

    architecture: Annotated[str | None, "the config's architectures[0], null when it names none"]
    model_type: Annotated[str | None, "the config's model_type"]
    num_parameters: Annotated[
        int | None, "an ESTIMATE of the parameter count from the config, null when it lacks the sizes"
    ]
    expectation: Annotated[Expectation, "what to expect on the stack (an expectation, not a result)"]
    similar: Annotated[
        list[ArchitectureModel], "tested models of that architecture on the stack, closest in size first"
    ]
    suggested_run_py: Annotated[
        str | None,
        "UNTESTED: the closest passing script of the architecture with /path/to/your/model in place of its model id, or null",
    ]
    suggested_from: Annotated[str | None, "the tested model whose script was adapted, or null"]


class ComparedModel(TypedDict, total=False):
    """One model on both stacks: each side's fields with the suffix _a or _b."""

    model_id: ModelId
    result_a: Annotated[str, 'its result on stack A ("not tested" without a run)']
    kind_a: Annotated[KindName, "what its result on stack A means, as kind"]
    tp_a: Annotated[int | None, "its cores on stack A"]
    wall_s_a: Annotated[int | None, "its wall time on stack A, in seconds"]
    hbm_peak_gb_a: Annotated[float | None, "its peak device memory on stack A, in GB"]
    hbm_capacity_gb_a: Annotated[float | None, "the device memory of its cores on stack A, in GB"]
    exclusion_a: Annotated[str | None, "why it was excluded on stack A"]
    result_b: Annotated[str, 'its result on stack B ("not tested" without a run)']
    kind_b: Annotated[KindName, "what its result on stack B means, as kind"]
    tp_b: Annotated[int | None, "its cores on stack B"]
    wall_s_b: Annotated[int | None, "its wall time on stack B, in seconds"]
    hbm_peak_gb_b: Annotated[float | None, "its peak device memory on stack B, in GB"]
    hbm_capacity_gb_b: Annotated[float | None, "the device memory of its cores on stack B, in GB"]
    exclusion_b: Annotated[str | None, "why it was excluded on stack B"]
    reasons: Annotated[list[str], "changed: what moved past the thresholds"]
    cause: Annotated[CauseAnswer, "a regression: its failure on B, reduced as /failures does"]


class ThresholdsAnswer(TypedDict):
    """What counts as a notable change between two passing runs (`compare.Thresholds`)."""

    wall_change: Annotated[float, "the least wall-time change that counts, as a fraction"]
    wall_min_s: Annotated[int, "and the least in seconds"]
    memory_change: Annotated[float, "the least peak-memory change that counts, as a fraction"]
    memory_min_gb: Annotated[float, "and the least in GB"]
    description: Annotated[str, "the thresholds in words"]


class CompareAnswer(TypedDict):
    """Two stacks compared, model by model (from A to B)."""

    stack_a: Annotated[StackAnswer | None, "stack A, the older one as a rule"]
    stack_b: Annotated[StackAnswer | None, "stack B"]
    thresholds: Annotated[ThresholdsAnswer, "what counts as a notable change between two passing runs"]
    regressions: Annotated[list[ComparedModel], "PASS on A, FAIL on B"]
    fixes: Annotated[list[ComparedModel], "FAIL on A, PASS on B"]
    added: Annotated[list[ComparedModel], "run on B only"]
    removed: Annotated[list[ComparedModel], "run on A only"]
    changed: Annotated[
        list[ComparedModel],
        "PASS on both, with wall time or peak memory moved past the thresholds or a different number of cores",
    ]
    other_changes: Annotated[
        list[ComparedModel],
        "any other change of result, such as PASS to EXCLUDED (an exclusion is a decision, not a regression)",
    ]


class WantedModel(TypedDict):
    """An untested model people look up."""

    model_id: ModelId
    lookups: Annotated[int, "distinct askers over the window, each address counted once a model a day"]
    last_day: Annotated[str, "the last day (UTC, ISO 8601) it was looked up"]
    downloads: Annotated[int | None, "the Hub's download count from its model record, null when unknown"]
    task: Annotated[str | None, "the Hub task from its model record, null when unknown"]
    expectation: Annotated[str, 'what to expect on its own stack: "likely runs", "likely fails" or "unknown"']


class UncheckedModel(TypedDict):
    """A model id looked up that the Hub has not confirmed yet: not counted until it does."""

    model_id: ModelId
    lookups: Annotated[int, "distinct askers so far, counted once the Hub knows the id"]
    last_day: Annotated[str, "the last day (UTC, ISO 8601) it was looked up"]


class WantedAnswer(TypedDict):
    """The models with no row on the newest stack that people look up most."""

    stack: Annotated[
        StackAnswer | None,
        "the newest stack, which the models have no row on (one that ran with another library: that library's newest)",
    ]
    days: Annotated[int, "how many days the counts cover"]
    persisted: Annotated[bool, "whether the counts are kept in a dataset repo (else in memory, lost on restart)"]
    models: Annotated[list[WantedModel], "the most looked-up first; only ids the Hub knows"]
    not_checked: Annotated[
        list[UncheckedModel],
        "ids looked up that the Hub has not confirmed yet (offline, or their look-up is pending): listed, not counted",
    ]
