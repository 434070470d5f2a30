"""Tests for components/sources/records.py, records_store.py and data/refresh_models.py. No network:
a fake HfApi answers from recorded records, and a fake Hub on 127.0.0.1 serves 404s, 500s, garbage or nothing."""

from __future__ import annotations

import importlib.util
import json
import threading
import time
from datetime import UTC, datetime
from types import SimpleNamespace

import httpx2
import pytest
from huggingface_hub import HfApi
from huggingface_hub.errors import RepositoryNotFoundError
from huggingface_hub.hf_api import ModelInfo
from huggingface_hub.utils import _http as hf_http

from components.sources import records_store
from components.sources.errors import SourceError
from components.sources.records import (
    BUNDLED_RECORDS,
    Records,
    base_chain,
    hub_id,
    hub_json,
    load_records,
    parse_record,
    parse_records,
)
from components.sources.records_store import NOT_AN_ID, RecordsStore, fetch_record, resolve_records
from tests.helpers import ROOT, FakeHub, fake_hub

FULL = {
    "id": "org/Fine-Tune-7B",
    "pipeline_tag": "text-generation",
    "config": {"architectures": ["LlamaForCausalLM"], "model_type": "llama"},
    "cardData": {"base_model": "meta-llama/Llama-3.1-8B"},
    "safetensors": {"parameters": {"BF16": 8030000000}, "total": 8030000000},
    "downloads": 12,
    "likes": 3,
    "trendingScore": 1.5,
    "gated": False,
    "private": False,
}


# ---- one record --------------------------------------------------------------------------------


def test_a_full_record_keeps_every_field():
    record = parse_record(FULL)
    assert record.model_id == "org/Fine-Tune-7B"
    assert record.task == "text-generation"
    assert record.architecture == "LlamaForCausalLM" and record.model_type == "llama"
    assert record.base_models == ("meta-llama/Llama-3.1-8B",)
    assert record.num_parameters == 8030000000
    assert (record.downloads, record.likes, record.trending_score) == (12, 3, 1.5)
    assert record.gated is None and record.private is False


@pytest.mark.parametrize("missing", [k for k in FULL if k != "id"])
def test_a_record_missing_any_field_keeps_the_rest(missing):
    record = parse_record({k: v for k, v in FULL.items() if k != missing})
    assert record is not None and record.model_id == "org/Fine-Tune-7B"
    if missing == "config":
        assert record.architecture is None and record.task == "text-generation"
    if missing == "pipeline_tag":
        assert record.task is None and record.architecture == "LlamaForCausalLM"


@pytest.mark.parametrize(
    "field, value",
    [
        ("pipeline_tag", 7), ("pipeline_tag", "<script>"), ("pipeline_tag", ""),
        ("config", "LlamaForCausalLM"), ("config", {"architectures": "Llama"}), ("config", {"architectures": [None, 3]}),
        ("config", {"architectures": ["<img src=x>"]}), ("cardData", ["x"]), ("cardData", {"base_model": 5}),
        ("cardData", {"base_model": ["not an id!", None]}), ("safetensors", {"total": -1}), ("safetensors", "lots"),
        ("downloads", "many"), ("downloads", True), ("likes", float("nan")), ("trendingScore", float("inf")),
        ("gated", "sometimes"), ("private", "yes"),
    ],
)  # fmt: skip
def test_wrong_types_are_unknown_not_errors(field, value):
    record = parse_record({**FULL, field: value})
    assert record is not None and record.model_id == "org/Fine-Tune-7B"
    as_dict = record.__dict__
    assert all(v is None or isinstance(v, (str, int, float, bool, tuple)) for v in as_dict.values())
    if field == "config":
        assert record.architecture is None
    if field == "cardData":
        assert record.base_models == ()


@pytest.mark.parametrize("entry", [None, [], "org/model", {"id": None}, {"id": ""}, {"id": "a/b/c"},
                                   {"id": "has space/x"}, {"id": "x" * 200}, {"id": "../etc/passwd"}])  # fmt: skip
def test_an_entry_without_a_usable_id_is_no_record(entry):
    assert parse_record(entry) is None


@pytest.mark.parametrize("text", ["", "   ", "a/b/c", "<script>", "org/na me", "org//x", "x" * 97, "--x", 5, None])
def test_strings_that_are_not_hub_ids(text):
    assert hub_id(text) is None


def test_hub_ids():
    assert hub_id(" Qwen/Qwen3-0.6B ") == "Qwen/Qwen3-0.6B"
    assert hub_id("gpt2") == "gpt2"


def test_base_model_lists_keep_valid_ids_in_order_without_the_model_itself():
    card = {"base_model": ["org/Fine-Tune-7B", "a/one", "bad id", "b/two", "a/one"]}
    assert parse_record({**FULL, "cardData": card}).base_models == ("a/one", "b/two")


def test_gated_and_private():
    assert parse_record({**FULL, "gated": "manual"}).gated == "manual"
    assert parse_record({**FULL, "gated": "auto"}).gated == "auto"
    assert parse_record({**FULL, "private": True}).private is True


def test_a_diffusers_pipeline_names_its_class_as_architecture():
    entry = {"id": "stabilityai/sd-turbo", "pipeline_tag": "text-to-image",
             "config": {"diffusers": {"_class_name": "StableDiffusionPipeline"}}}  # fmt: skip
    assert parse_record(entry).architecture == "StableDiffusionPipeline"


def test_hub_json_of_a_model_info_parses_back_to_the_same_record():
    info = ModelInfo(**{**FULL, "siblings": None})
    assert parse_record(hub_json(info)) == parse_record(FULL)


# ---- a set of records --------------------------------------------------------------------------


def chain_records(*pairs) -> Records:
    entries = [{"id": m, "cardData": {"base_model": b}} for m, b in pairs]
    return parse_records(entries, "test")


def test_base_chain_follows_hops_and_stops_at_cycles_and_unknowns():
    records = chain_records(("a/c", "a/b"), ("a/b", "a/a"), ("a/a", "a/c"))  # a cycle of three
    assert base_chain(records, "a/c", hops=3) == [("a/b", 1), ("a/a", 2)]
    records = chain_records(("x/ft", ["x/base1", "x/unknown"]), ("x/base1", "x/root"))
    assert base_chain(records, "x/ft", hops=3) == [("x/base1", 1), ("x/unknown", 1), ("x/root", 2)]
    assert base_chain(records, "x/ft", hops=1) == [("x/base1", 1), ("x/unknown", 1)]
    assert base_chain(records, "not/known", hops=3) == []
    assert base_chain(chain_records(("self/loop", "self/loop")), "self/loop", hops=3) == []


def test_records_are_looked_up_in_any_case_and_stay_immutable():
    records = parse_records([FULL], "test")
    assert records.get("ORG/fine-tune-7b").model_id == "org/Fine-Tune-7B"
    assert records.get(None) is None
    with pytest.raises(TypeError):
        records.models["x"] = None  # type: ignore[index]
    more = records.added([parse_record({"id": "b/c", "pipeline_tag": "text-to-image"})], {"z/z": "gone"})
    assert len(records) == 1 and len(more) == 2
    assert more.why_unknown("Z/Z") == "gone" and more.tasks(["b/c", "org/Fine-Tune-7B"]) == {
        "text-to-image", "text-generation",
    }  # fmt: skip


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "file not found"),
        ("{nope", "invalid JSON"),
        ('{"models": 5}', "expected a list"),
        ('"text"', "expected a list"),
    ],
)
def test_a_bad_records_file_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "models.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SourceError, match=message) as info:
        load_records(path)
    assert "models.json" in str(info.value) and str(tmp_path) not in str(info.value)


def test_a_records_file_skips_broken_entries(tmp_path, caplog):
    path = tmp_path / "m.json"
    path.write_text(json.dumps([FULL, {"id": 5}, "junk", {"id": "ok/one"}]))
    records = load_records(path)
    assert set(records.models) == {"org/Fine-Tune-7B", "ok/one"}
    assert "skipped 2" in caplog.text


def test_the_bundled_snapshot_covers_the_sample_and_the_rankings_and_says_it_is_hand_made():
    from components.sources.dataset import SAMPLE_DIR, load
    from components.sources.rankings import BUNDLED_SNAPSHOT, load_snapshot

    data = json.loads(BUNDLED_RECORDS.read_text())
    assert data["hand_made"] is True and "HAND-MADE" in data["note"] and "refresh_models.py" in data["note"]
    records = load_records(BUNDLED_RECORDS)
    ranked = {m.model_id for ms in load_snapshot(BUNDLED_SNAPSHOT).lists.values() for m in ms}
    wanted = set(load(SAMPLE_DIR).model_ids) | ranked
    assert not {m for m in wanted if records.get(m) is None}
    tested = set(load(SAMPLE_DIR).model_ids)
    assert all(records.task_of(m) for m in tested), "every sample model has a task"
    assert records.task_of("stabilityai/sd-turbo") == "text-to-image"
    assert records.task_of("sentence-transformers/all-MiniLM-L6-v2") == "sentence-similarity"
    assert records.get("unsloth/Llama-3.2-1B-Instruct").base_models == ("meta-llama/Llama-3.2-1B-Instruct",)


# ---- the store: --models, live look-ups --------------------------------------------------------


def test_resolve_records_sources(tmp_path, monkeypatch):
    monkeypatch.delenv("SUPPORT_MODELS", raising=False)
    default = resolve_records("")
    assert default.live and default.start().get("Qwen/Qwen3-0.6B") is not None
    assert resolve_records("hub").live and len(resolve_records("hub").start()) == 0
    path = tmp_path / "m.json"
    path.write_text(json.dumps([FULL]))
    store = resolve_records(str(path))
    assert not store.live and len(store.start()) == 1
    monkeypatch.setenv("SUPPORT_MODELS", str(path))
    assert len(resolve_records().start()) == 1
    missing = resolve_records(str(tmp_path / "missing.json"))  # nothing read yet
    with pytest.raises(SourceError, match="file not found"):
        missing.begin()


def begun(store: RecordsStore) -> RecordsStore:
    """`store` after its `begin()`: a store serves nothing before it."""
    store.begin()
    return store


@pytest.fixture
def polls(monkeypatch):
    """Each pause of `lookup`'s wait for a look-up (the store's own `time.sleep`), still paused: how long a
    caller was kept, counted in polls rather than timed."""
    paused: list[float] = []

    def sleep(seconds: float) -> None:
        paused.append(seconds)
        time.sleep(seconds)

    monkeypatch.setattr(records_store, "time", SimpleNamespace(monotonic=time.monotonic, sleep=sleep))
    return paused


def wait_until(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_offline_or_from_a_file_the_answer_says_what_is_unknown(tmp_path, monkeypatch, polls):
    from components.sources import dataset_store

    monkeypatch.setattr(dataset_store.hf_constants, "is_offline_mode", lambda: True)
    from_file = begun(RecordsStore(parse_records([FULL], "m.json"), live=False))
    assert "no record in m.json" in from_file.why_unknown("new/model")
    assert from_file.why_unknown("not an id!") == NOT_AN_ID
    offline = begun(RecordsStore(parse_records([FULL], "bundled"), live=True))
    assert "HF_HUB_OFFLINE" in offline.why_unknown("new/model")
    assert offline.lookup("new/model", wait=1) is None
    assert polls == []  # offline, nothing to wait for


def test_live_lookups_run_in_the_background_and_are_cached(online, polls):
    calls = []
    release = threading.Event()

    def fetch(model_id):
        calls.append(model_id)
        release.wait(5)
        return parse_record({**FULL, "id": model_id})

    store = begun(RecordsStore(parse_records([FULL], "bundled"), live=True, fetch=fetch))
    before = store.current()
    assert store.lookup("new/model") is None  # never waits by default
    assert polls == []
    assert store.why_unknown("new/model") == records_store.PENDING
    store.want(["new/model", "new/model", "org/Fine-Tune-7B"])  # pending and known ids are not asked again
    release.set()
    assert wait_until(lambda: store.current().get("new/model") is not None)
    assert before.get("new/model") is None  # the old set was not changed: a new one was swapped in
    assert store.lookup("new/model").architecture == "LlamaForCausalLM"
    assert calls == ["new/model"]


def test_lookup_waits_at_most_its_wait(online, polls):
    release = threading.Event()
    store = begun(RecordsStore(Records({}, "x"), live=True, fetch=lambda m: release.wait(10), timeout=20))
    assert store.lookup("slow/model", wait=0.3) is None
    assert 1 <= len(polls) <= 0.3 / 0.05 + 1 and set(polls) == {0.05}  # it waited, and no longer than 0.3 s
    assert store.why_unknown("slow/model") == records_store.PENDING  # the look-up goes on without the caller
    release.set()


def test_the_queue_is_bounded(online):
    release = threading.Event()
    store = begun(RecordsStore(Records({}, "x"), live=True, fetch=lambda m: release.wait(5), workers=1, max_pending=3))
    store.want([f"many/m{i}" for i in range(50)])
    assert len(store._queued) + len(store._in_flight) <= 3
    assert store.why_unknown("many/m0") == records_store.PENDING
    assert store.why_unknown("many/m40") == records_store.BUSY
    release.set()


def test_live_records_beyond_the_limit_drop_the_oldest(online):
    store = begun(RecordsStore(Records({}, "x"), live=True, fetch=lambda m: parse_record({"id": m}), max_live=2))
    for name in ("a/one", "a/two", "a/three"):
        store.want([name])
        assert wait_until(lambda name=name: store.current().get(name) is not None)
    assert store.current().get("a/one") is None and len(store.current()) == 2


@pytest.fixture
def hub(online, tmp_path, monkeypatch):
    """A real HfApi on the fake Hub that answers each model by its name (`tests.helpers.FakeHub`, mode "models")."""
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    with fake_hub("models") as endpoint:
        yield HfApi(endpoint=endpoint, token=False)


@pytest.mark.parametrize(
    "model_id, reason",
    [
        ("org/ok-model", None),
        ("org/404-model", "no public model"),
        ("org/500-model", "could not be asked"),
        ("org/garbage-model", "could not be asked"),
        ("org/slow-model", "could not be asked"),
        ("org/other-model", "could not be asked"),
    ],
)
def test_a_real_hf_api_against_a_fake_hub(hub, model_id, reason):
    store = begun(
        RecordsStore(Records({}, "bundled"), live=True, fetch=lambda m: fetch_record(m, hub, timeout=1.0), timeout=1.0)
    )
    store.want([model_id])  # the caller never waits on the Hub (test_live_lookups_run_in_the_background...)
    assert wait_until(lambda: store.current().get(model_id) or store.current().why_unknown(model_id), 10)
    if reason is None:
        assert store.current().get(model_id).architecture == "LlamaForCausalLM"
    else:
        assert reason in store.why_unknown(model_id)
        store.want([model_id])  # a failure is cached: not asked again at once
        assert model_id.casefold() not in store._queued


def test_a_look_up_cut_off_by_huggingface_hub_closing_its_shared_client_is_asked_again(hub):
    # huggingface_hub closes its one shared client whenever any call fails to connect (a rankings
    # refresh while the Hub is away); a look-up in flight then reads from a closed socket.
    FakeHub.asked.clear()
    answer: dict = {}
    thread = threading.Thread(target=lambda: answer.update(record=fetch_record("org/halfway-model", hub, timeout=5)))
    thread.start()
    assert FakeHub.asked.wait(5)
    hf_http.close_session()  # what huggingface_hub does on any ConnectError, from any thread
    thread.join(10)
    assert answer["record"].architecture == "LlamaForCausalLM"


def test_other_read_errors_are_not_asked_again():
    calls = []

    class Api:
        def model_info(self, model_id, **kwargs):
            calls.append(model_id)
            raise httpx2.ReadError("connection reset by peer")

    with pytest.raises(httpx2.ReadError):
        fetch_record("org/model", Api())
    assert calls == ["org/model"]


# ---- data/refresh_models.py -------------------------------------------------------------------


def load_refresh_script():
    spec = importlib.util.spec_from_file_location("refresh_models", ROOT / "data" / "refresh_models.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class RecordedApi:
    """Answers `list_models` and `model_info` from recorded records, as ModelInfo objects."""

    def __init__(self, entries: list[dict], broken: dict[str, Exception] | None = None):
        self.entries = {e["id"]: e for e in entries}
        self.broken = broken or {}
        self.calls: list[tuple[str, dict]] = []

    def list_models(self, **kwargs):
        self.calls.append(("list_models", kwargs))
        ranked = [e for e in self.entries.values() if e.get("pipeline_tag") == kwargs["pipeline_tag"]]
        return (ModelInfo(**{**e, "siblings": None}) for e in ranked[: kwargs["limit"]])

    def model_info(self, model_id, **kwargs):
        self.calls.append(("model_info", {"id": model_id, **kwargs}))
        if model_id in self.broken:
            raise self.broken[model_id]
        if model_id not in self.entries:
            response = httpx2.Response(
                404, request=httpx2.Request("GET", f"https://huggingface.co/api/models/{model_id}")
            )
            raise RepositoryNotFoundError("Repository Not Found", response=response)
        return ModelInfo(**{**self.entries[model_id], "siblings": None})


def test_refresh_script_writes_the_records_the_app_reads(tmp_path):
    from components.sources.dataset import SAMPLE_DIR, load

    recorded = load_records(BUNDLED_RECORDS)
    entries = json.loads(BUNDLED_RECORDS.read_text())["models"]
    out = tmp_path / "models.json"
    api = RecordedApi(entries, broken={"Qwen/Qwen3-8B": TimeoutError("slow")})
    out.write_text(json.dumps({"models": [e for e in entries if e["id"] == "Qwen/Qwen3-8B"]}))
    assert load_refresh_script().main(["--out", str(out), "--workers", "2"], api=api) == 0
    written = load_records(out)
    for model_id in load(SAMPLE_DIR).model_ids:
        assert written.get(model_id) == recorded.get(model_id)  # same records, through ModelInfo and back
    kinds = {name for name, _ in api.calls}
    assert kinds == {"list_models", "model_info"}
    assert all(call.get("expand") for _, call in api.calls)
    payload = json.loads(out.read_text())
    assert payload["hand_made"] is False and payload["fetched_at"].endswith("Z") and "1 kept" in payload["note"]


def test_refresh_script_with_a_dead_hub_leaves_the_file_alone(tmp_path):
    out = tmp_path / "models.json"
    out.write_text("[]")

    class DeadApi:
        def list_models(self, **kwargs):
            raise OSError("unreachable")

        def model_info(self, model_id, **kwargs):
            raise OSError("unreachable")

    assert load_refresh_script().main(["--out", str(out)], api=DeadApi()) == 1
    assert out.read_text() == "[]"


def test_a_hub_that_answers_nothing_backs_off_and_a_batch_that_hangs_is_abandoned(online):
    from components.sources.refresh import Backoff

    def down(model_id):
        raise OSError("unreachable")

    store = begun(RecordsStore(Records({}, "bundled"), live=True, fetch=down, backoff=Backoff(first=60)))
    store.want(["a/one", "a/two"])
    assert wait_until(lambda: store.current().why_unknown("a/one"))
    status = store.source_status()
    assert status.source == "records" and status.failures == 1 and "OSError" in status.last_error
    assert "could not be asked" in store.why_unknown("a/two")

    def waiting() -> float:
        """How far off the refresh thread has planned its next attempt, in seconds (0 when none is planned)."""
        planned = store.source_status().next_attempt_at
        return 0.0 if planned is None else (planned - datetime.now(UTC)).total_seconds()

    assert wait_until(lambda: waiting() > 30)  # the thread now waits out the back-off (60 s)
    store.want(["b/three"])  # queued, but the next batch waits for the back-off
    assert not store.refresh_pending() and waiting() > 30  # the want did not cut the back-off short
    assert store.why_unknown("b/three") == records_store.PENDING
    store.stop()

    hang, returned = threading.Event(), threading.Event()

    def hangs(model_id):
        hang.wait(60)  # released only after the asserts: the fetch is still hanging when the store gives up
        returned.set()

    slow = begun(RecordsStore(Records({}, "bundled"), live=True, fetch=hangs, timeout=0.2, batch=1))
    slow.want(["c/hangs"])
    assert wait_until(lambda: slow.current().why_unknown("c/hangs"), 30)  # 30 s: a hang guard, not a figure
    assert "ReadTimeout" in slow.why_unknown("c/hangs") and not returned.is_set()  # abandoned, not waited for
    hang.set()
    slow.stop()
