"""The shapes of the endpoints' answers, as types: Gradio reads an endpoint's return annotation to
describe its fields on the API page (`/gradio_api/info`), so a program sees what each answer holds.

`total=False` marks answers whose keys depend on the case (a model with or without a row, a ranked
view); every value is plain JSON (`None` is null), and counts are integers.
"""

from typing import TypedDict


class StackAnswer(TypedDict):
    neuronx_cc: str
    library: str
    library_version: str
    models: int
    passed: int


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


class RowAnswer(ModelOnStack, total=False):
    """One model on one stack, as /search lists it (ranked views add rank, downloads, likes, trending_score)."""

    rank: int | None
    downloads: int | None
    likes: int | None
    trending_score: float | None


class HistoryEntry(TypedDict):
    neuronx_cc: str
    library: str
    library_version: str
    result: str
    kind: str
    tp: int | None
    wall_s: int | None
    hbm_peak_gb: float | None
    hbm_capacity_gb: float | None
    last_pass: bool
    first_fail_after_pass: bool


class Expectation(TypedDict):
    """What to expect from a model with no row on the stack: never a result (that stays "not tested")."""

    verdict: str
    basis: str
    reason: str


class LookupAnswer(ModelOnStack, total=False):
    """Everything about one model on one stack; which keys are present depends on the case."""

    error: str | None
    notes: str | None
    tested_at: str | None
    run_py: str | None
    gated: str
    instance: str | None
    install_command: str
    cache_sync_command: str
    history: list[HistoryEntry]
    evidence: dict
    expectation: Expectation
    suggested_run_py: str
    suggested_from: str
    suggested_tp: int
    record_unknown: str
    unknown_stack: str


class ComparedModel(TypedDict, total=False):
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


class CompareAnswer(TypedDict):
    stack_a: StackAnswer | None
    stack_b: StackAnswer | None
    thresholds: dict
    regressions: list[ComparedModel]
    fixes: list[ComparedModel]
    added: list[ComparedModel]
    removed: list[ComparedModel]
    changed: list[ComparedModel]
    other_changes: list[ComparedModel]


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
