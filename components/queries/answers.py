"""The shapes of the endpoints' answers, declared once, beside the code that builds them.

The builders (`views`, `details`, `evidence`, `compare`, `architectures`) return these types, the field
lists of the views and exports are read from them, and the endpoints (`web/api.py`) name them as their
return annotations: Gradio reads those to describe each answer's fields on the API page
(`/gradio_api/info`) and to MCP clients. `tests/e2e/test_answers.py` holds every endpoint's answers to
their declared type, key for key, so the published schema cannot drift from what is sent.

`total=False` marks answers whose keys depend on the case (a model with or without a row, a ranked
view); every value is plain JSON (`None` is null), counts are integers. Annotations are evaluated (no
`from __future__ import annotations`): Gradio reads them as types, not strings.
"""

from typing import TypedDict

from components.domain.stacks import StackAnswer

__all__ = [
    "ArchitectureAnswer",
    "ArchitectureEvidence",
    "ArchitectureModel",
    "BaseModelEvidence",
    "CompareAnswer",
    "ComparedModel",
    "ConfigCheckAnswer",
    "Evidence",
    "HistoryEntry",
    "LookupAnswer",
    "ModelOnStack",
    "RankFields",
    "RowAnswer",
    "StackAnswer",
    "Suggestion",
    "ThresholdsAnswer",
    "keys",
]


def keys(shape: type) -> tuple[str, ...]:
    """The keys a TypedDict declares, its bases' first, in declaration order."""
    return tuple(shape.__annotations__)


class ModelOnStack(TypedDict, total=False):
    """What /search and /lookup both say of one model on one stack."""

    model_id: str
    result: str
    kind: str
    tp: int | None
    wall_s: int | None
    hbm_peak_gb: float | None
    hbm_capacity_gb: float | None
    exclusion: str | None
    neuronx_cc: str | None
    library: str | None
    library_version: str | None
    task: str | None
    architecture: str | None
    num_parameters: int | None


class RankFields(TypedDict, total=False):
    """What a ranking says of a model: its rank in the view, and the Hub's counts."""

    rank: int | None
    downloads: int | None
    likes: int | None
    trending_score: float | None


class RowAnswer(ModelOnStack, RankFields, total=False):
    """One model on one stack, as /search lists it (ranked views add rank, likes, trending_score)."""


class HistoryEntry(TypedDict):
    """The model on one stack, in /lookup's history."""

    neuronx_cc: str
    library: str
    library_version: str
    result: str
    tp: int | None
    wall_s: int | None
    hbm_peak_gb: float | None
    hbm_capacity_gb: float | None
    exclusion: str | None
    tested_at: str | None
    kind: str
    last_pass: bool
    first_fail_after_pass: bool


class ArchitectureModel(TypedDict):
    model_id: str
    result: str
    tp: int | None
    num_parameters: int | None


class ArchitectureAnswer(TypedDict):
    architecture: str
    tested: int
    passed: int
    models: list[ArchitectureModel]


class BaseModelEvidence(TypedDict):
    """The nearest base model with a row on the stack, `hops` steps up the base_model chain."""

    model_id: str
    result: str
    tp: int | None
    hops: int


class ArchitectureEvidence(TypedDict):
    """The model's architecture on the stack, and up to three tested models of it closest in size."""

    name: str
    tested: int
    passed: int
    closest: list[ArchitectureModel]


class Evidence(TypedDict):
    base_model: BaseModelEvidence | None
    architecture: ArchitectureEvidence | None


class Suggestion(TypedDict, total=False):
    """A run.py adapted from a tested script (UNTESTED), or a note saying why there is none."""

    suggested_run_py: str
    suggested_from: str
    suggested_tp: int
    suggested_note: str


class CauseAnswer(TypedDict):
    """What a FAIL's error reduces to (see /failures)."""

    signature: str
    code: str | None
    summary: str
    docs: str | None


class ModelCause(CauseAnswer):
    """A failed model's cause on its stack, with the other models it blocks there."""

    shared_with: list[str]


class StackRef(TypedDict):
    neuronx_cc: str
    library: str
    library_version: str


class FixedIn(StackRef):
    models: list[str]


class FailureCause(CauseAnswer):
    count: int
    models: list[str]
    first_seen: StackRef
    fixed_in: list[FixedIn]


class FailuresAnswer(TypedDict):
    stack: StackAnswer | None
    failed: int
    causes: list[FailureCause]


class RequestTest(TypedDict):
    """Where to ask for a run of an untested model (a new discussion on the dataset), and the text to ask with."""

    url: str
    title: str
    text: str


class Expectation(TypedDict):
    """What to expect from a model with no row on the stack: never a result (that stays "not tested")."""

    verdict: str
    basis: str
    reason: str


class LookupAnswer(ModelOnStack, Suggestion, total=False):
    """Everything about one model on one stack; which keys are present depends on the case.

    A tested row carries every dataset column (`columns.COLUMNS`); a column a newer dataset adds and
    the app does not know yet is passed through as it is."""

    runner: str | None
    notes: str | None
    error: str | None
    cpu_match: str | None
    english: str | None
    transformers: str | None
    diffusers: str | None
    sentence_transformers: str | None
    accelerate: str | None
    torch_neuronx: str | None
    torch: str | None
    nki: str | None
    python: str | None
    neuron_driver: str | None
    tested_at: str | None
    run_py: str | None
    gated: str
    instance: str | None
    install_command: str
    cache_sync_command: str
    history: list[HistoryEntry]
    evidence: Evidence
    record_unknown: str
    unknown_stack: str
    cause: ModelCause
    report_url: str
    request_test: RequestTest
    expectation: Expectation
    query_snippet: str


class ConfigCheckAnswer(TypedDict):
    """What to expect from a model described only by its config.json (/check_config)."""

    architecture: str | None
    model_type: str | None
    num_parameters: int | None
    expectation: Expectation
    similar: list[ArchitectureModel]
    suggested_run_py: str | None
    suggested_from: str | None


class ComparedModel(TypedDict, total=False):
    """One model on both stacks: each side's fields with the suffix _a or _b."""

    model_id: str
    result_a: str
    kind_a: str
    tp_a: int | None
    wall_s_a: int | None
    hbm_peak_gb_a: float | None
    hbm_capacity_gb_a: float | None
    exclusion_a: str | None
    result_b: str
    kind_b: str
    tp_b: int | None
    wall_s_b: int | None
    hbm_peak_gb_b: float | None
    hbm_capacity_gb_b: float | None
    exclusion_b: str | None
    reasons: list[str]
    cause: CauseAnswer


class ThresholdsAnswer(TypedDict):
    """What counts as a notable change between two passing runs (`compare.Thresholds`)."""

    wall_change: float
    wall_min_s: int
    memory_change: float
    memory_min_gb: float
    description: str


class CompareAnswer(TypedDict):
    stack_a: StackAnswer | None
    stack_b: StackAnswer | None
    thresholds: ThresholdsAnswer
    regressions: list[ComparedModel]
    fixes: list[ComparedModel]
    added: list[ComparedModel]
    removed: list[ComparedModel]
    changed: list[ComparedModel]
    other_changes: list[ComparedModel]
