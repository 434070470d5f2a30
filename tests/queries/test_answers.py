"""Every answer of every endpoint matches its declared type, key for key: no undeclared key, every
required key present, every value of the declared type. Gradio publishes these types on
`/gradio_api/info` and to MCP clients, so a program is told the schema this test holds.

The endpoints are found by walking `Api`'s public methods and their return annotations, and called
with every stack, model, view and task of the bundled sample: a new endpoint, or a new key in an
answer, is checked as soon as it is declared.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections import Counter
from typing import Any, Literal, Union

import pytest
from gradio.utils import get_function_description
from pydantic import TypeAdapter
from typing_extensions import TypedDict, is_typeddict

from components.domain.columns import NAMES
from components.domain.errors import UnknownStack
from components.domain.results import KINDS
from components.queries import answers, expectation
from components.queries.api import Api, described
from components.queries.compare import DEFAULT_THRESHOLDS
from components.queries.errors import ArgumentRefused
from components.queries.views import VIEWS
from components.runtime import settings
from components.sources.app_sources import Sources
from components.sources.dataset_store import DatasetStore
from components.sources.rankings_store import resolve_rankings
from components.sources.records_store import resolve_records
from components.web.gradio.endpoints import named_endpoint
from tests.helpers import ROOT

UNKNOWN_STACK = ("9.99.0", "")


def violations(value: Any, hint: Any, path: str = "answer") -> list[str]:
    """How `value` departs from the type `hint` (empty when it matches)."""
    if hint is Any:
        return []
    origin = typing.get_origin(hint)
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not an object"]
        declared = typing.get_type_hints(hint)
        found = [f"{path}.{k}: not declared in {hint.__name__}" for k in value if k not in declared]
        found += [f"{path}.{k}: required, missing" for k in sorted(hint.__required_keys__) if k not in value]
        for key, item in value.items():
            if key in declared:
                found += violations(item, declared[key], f"{path}.{key}")
        return found
    if origin is Literal:  # an enum: one of its values
        return (
            [] if value in typing.get_args(hint) else [f"{path}: {value!r:.80} is not one of {typing.get_args(hint)}"]
        )
    if origin in (Union, types.UnionType):
        arms = [violations(value, arm, path) for arm in typing.get_args(hint)]
        return [] if any(not arm for arm in arms) else [f"{path}: {value!r:.80} is not {hint}"]
    if origin is list or hint is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__}, not a list"]
        (item_hint,) = typing.get_args(hint) or (Any,)
        return [v for i, item in enumerate(value) for v in violations(item, item_hint, f"{path}[{i}]")]
    if origin is dict or hint is dict:
        return [] if isinstance(value, dict) else [f"{path}: {type(value).__name__}, not an object"]
    if hint is type(None):
        return [] if value is None else [f"{path}: {value!r:.80} is not null"]
    if hint is float:  # a JSON number: an int is one too
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)
    return [] if ok else [f"{path}: {type(value).__name__} {value!r:.80}, not {hint.__name__}"]


def endpoints() -> dict[str, inspect.Signature]:
    """Every public method of `Api` (each is a named endpoint), by name."""
    return {name: inspect.signature(fn) for name, fn in inspect.getmembers(Api, inspect.isfunction) if name[0] != "_"}


@pytest.fixture(scope="module")
def api():
    rankings = resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json"))
    records = resolve_records(str(ROOT / "data" / "models_snapshot.json"))
    sources = Sources(DatasetStore(str(ROOT / "data" / "sample")), rankings, records)
    sources.start()
    return Api(sources)


def argument_pools(api: Api) -> dict[str, list]:
    snapshot, rankings = api.sources.datasets.current(), api.sources.rankings.current()
    ranked = [m.model_id for lists in rankings.lists.values() for m in lists]
    untested = [m for m in dict.fromkeys(ranked) if snapshot.canonical_model_id(m) is None]
    return {
        "model_id": [*snapshot.model_ids, *untested, "nobody/not-a-model", "qwen/QWEN3-0.6b", "not an id"],
        "query": ["", "qwen", "llama 8b", "no-such-model-anywhere"],
        "view": list(VIEWS),
        "task": ["", "text-generation", "image-text-to-text", "text-to-image"],
        "library": ["", "transformers", "diffusers", "sentence-transformers"],
        "config_json": [
            '{"architectures": ["Qwen3ForCausalLM"], "hidden_size": 1024, "num_hidden_layers": 28, '
            '"num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936}',
            '{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 32, '
            '"num_attention_heads": 32, "intermediate_size": 14336, "vocab_size": 128256}',
            '{"model_type": "unheard-of"}',
        ],
    }


def stack_arguments(api: Api) -> list[tuple[str, str]]:
    """(neuronx_cc, library_version) for every stack, the newest as "", a plain Transformers version,
    and a stack that is not in the data."""
    stacks = api.sources.datasets.current().stacks
    return [
        ("", ""),
        *((s.neuronx_cc, s.spec) for s in stacks),
        (stacks[0].neuronx_cc.split("+")[0], ""),
        UNKNOWN_STACK,
    ]


def calls(api: Api, signature: inspect.Signature):
    """Keyword arguments for one endpoint: every value of every parameter at least once, and every
    stack on each pair of stack parameters at least four times (for compare, B walks against A)."""
    params = [p for p in signature.parameters if p not in ("self", "request")]  # a request is not an argument
    pools = argument_pools(api)
    stacks = stack_arguments(api)
    suffixes = sorted({p.removeprefix("neuronx_cc") for p in params if p.startswith("neuronx_cc")})
    others = {p: pools.get(p, [""]) for p in params if not p.startswith(("neuronx_cc", "library_version"))}
    total = max([4 * len(stacks) if suffixes else 1, *(len(v) for v in others.values())])
    for i in range(total):
        kwargs = {p: values[i % len(values)] for p, values in others.items()}
        for n, suffix in enumerate(suffixes):
            stack = stacks[(i + n * (1 + i // len(stacks))) % len(stacks)]
            kwargs["neuronx_cc" + suffix], kwargs["library_version" + suffix] = stack
        yield kwargs


def answers_of(api: Api):
    """(endpoint, arguments, answer, declared type) for every call; errors (an unknown stack) are not answers."""
    for name, signature in endpoints().items():
        hint = typing.get_type_hints(getattr(Api, name))["return"]
        for kwargs in calls(api, signature):
            try:
                answer = getattr(api, name)(**kwargs)
            except (ArgumentRefused, UnknownStack):
                continue
            yield name, kwargs, answer, hint


@pytest.fixture(scope="module")
def given(api):
    return list(answers_of(api))


def test_every_answer_of_every_endpoint_matches_its_declared_type(given):
    seen: Counter = Counter()
    problems = []
    for name, kwargs, answer, hint in given:
        seen[name] += 1
        problems += [f"/{name}({kwargs}): {v}" for v in violations(answer, hint)[:3]]
    assert not problems, "\n".join(problems[:30])
    assert set(seen) == set(endpoints()), seen  # every endpoint answered (an unknown stack is an error)


def test_the_cases_that_drifted_are_covered_and_declared(given):
    lookups = [a for name, _, a, _ in given if name == "lookup"]
    history = [e for a in lookups for e in a.get("history", [])]
    assert history and all({"exclusion", "tested_at"} <= set(e) for e in history)
    assert any("suggested_note" in a for a in lookups) and any("suggested_run_py" in a for a in lookups)
    assert any("evidence" in a for a in lookups) and any("unknown_stack" in a for a in lookups)
    assert any("install_command" in a and a["result"] != "not tested" for a in lookups)


def test_every_answer_that_carries_a_result_carries_its_kind_declared_as_the_enum():
    enum = list(KINDS)
    with_result = 0
    for name, shape in answers.shapes().items():
        fields = answers.keys(shape)
        for result in (f for f in fields if f.startswith("result")):
            with_result += 1
            kind = "kind" + result.removeprefix("result")
            assert kind in fields, f"{name} has {result} but no {kind}"
            assert TypeAdapter(shape).json_schema()["properties"][kind]["enum"] == enum, (name, kind)
    assert with_result >= 6
    assert violations(
        {"model_id": "a", "kind": "PASS"}, answers.RowAnswer
    )  # the dataset's word is result's, not kind's


def test_a_tested_lookup_declares_every_dataset_column():
    assert set(NAMES) <= set(typing.get_type_hints(answers.LookupAnswer))


def test_the_check_itself_finds_an_undeclared_key_a_missing_key_and_a_wrong_type():
    good = {"neuronx_cc": "2.28", "library": "transformers", "library_version": "4.57.1", "models": 3, "passed": 2}
    assert violations([good], list[answers.StackAnswer]) == []
    assert violations({**good, "extra": 1}, answers.StackAnswer) == ["answer.extra: not declared in StackAnswer"]
    assert violations({k: v for k, v in good.items() if k != "passed"}, answers.StackAnswer) == [
        "answer.passed: required, missing"
    ]
    assert violations({**good, "models": 3.0}, answers.StackAnswer)  # a count must be an integer
    assert violations({**good, "models": True}, answers.StackAnswer)
    assert violations({"model_id": "a", "tp": "2"}, answers.RowAnswer)
    assert violations({"model_id": "a", "tp": None, "hbm_peak_gb": 3}, answers.RowAnswer) == []


# ---- the documentation generated from the types ----------------------------------------------------


def test_every_answer_type_is_listed_and_every_field_has_a_one_line_description():
    # a stack's two shapes are declared beside `Stack` (domain/stacks.py), which returns them; answers.py lists them
    homes = (answers.__name__, "components.domain.stacks")
    declared = {name for name, value in vars(answers).items() if is_typeddict(value) and value.__module__ in homes}
    assert declared == set(answers.shapes()) and declared <= set(answers.__all__)
    for name, shape in answers.shapes().items():
        described = answers.describe(shape)
        assert list(described) == list(answers.keys(shape)), name
        for key, text in described.items():
            assert text.strip() and "\n" not in text, f"{name}.{key}: {text!r}"


def test_a_field_without_a_description_is_named():
    class Bare(TypedDict):
        model_id: str

    with pytest.raises(TypeError, match="Bare.model_id has no description"):
        answers.describe(Bare)


def reachable(shape: Any) -> set[tuple[str, str]]:
    """(type name, key) of every field of `shape` and of the answers nested in it."""
    found: set[tuple[str, str]] = set()
    todo = [shape]
    while todo:
        hint = todo.pop()
        if is_typeddict(hint):
            if any(name == hint.__name__ for name, _ in found):
                continue
            hints = typing.get_type_hints(hint)
            found |= {(hint.__name__, key) for key in hints}
            todo += list(hints.values())
        else:
            todo += list(typing.get_args(hint))
    return found


def test_each_endpoints_documentation_names_every_field_of_its_answer_on_lines_of_its_own():
    for name in endpoints():
        fn = getattr(Api, name)
        _, _, returns = get_function_description(fn)  # what Gradio sends to MCP clients, item by item
        text = "\n".join(returns)
        assert returns and all(line.strip() for line in returns), name
        for shape, key in reachable(typing.get_type_hints(fn)["return"]):
            assert f"{key}: " in text, f"/{name}: {shape}.{key} is not documented"
        top = answers.keys(answers._inner(typing.get_type_hints(fn)["return"]))
        assert [line.split(":")[0] for line in returns[-len(top) :]] == list(top), name


def test_threshold_values_in_the_documentation_come_from_the_code_that_owns_them():
    assert DEFAULT_THRESHOLDS.describe() in inspect.getdoc(Api.compare)
    lookup = inspect.getdoc(Api.lookup)
    assert f"within {expectation.SIZE_RATIO:g}x" in lookup and f"at least {expectation.MIN_TESTED} of" in lookup
    assert f"at most {settings.REPORT_URL.value // 1024} KB" in lookup


@pytest.mark.parametrize("name", sorted(answers.shapes()))
def test_pydantic_reads_every_answer_type_with_the_same_fields(name):
    shape = answers.shapes()[name]
    schema = TypeAdapter(shape).json_schema()
    assert list(schema["properties"]) == list(answers.keys(shape))
    assert set(schema.get("required", ())) == set(shape.__required_keys__)


def test_each_endpoint_describes_every_argument_it_takes_once_in_words():
    for name in endpoints():
        fn = named_endpoint(getattr(Api, name))  # as Gradio serves it
        _, arguments, _ = get_function_description(fn)  # what Gradio sends to MCP clients, argument by argument
        arguments.pop("self", None)  # Gradio lists it, undescribed, on a method
        arguments.pop("request", None)  # Gradio injects a gr.Request; its API info and MCP list no such argument
        taken = [p for p in inspect.signature(fn).parameters if p not in ("self", "request")]
        assert sorted(arguments) == sorted(taken), name
        for argument, text in arguments.items():
            assert text and "{" not in text and "\n" not in text, f"/{name}: {argument}: {text!r}"


def test_the_http_side_reads_each_docstring_as_gradio_does():
    """`api.described` (what /api/v1 and its OpenAPI document read, without Gradio) agrees with Gradio's reader."""
    for name in (*endpoints(), "search_by_size", "lookup_on_stack"):
        fn = getattr(Api, name)
        summary, arguments, returns = get_function_description(fn)
        assert described(fn) == (summary, arguments, returns), name
