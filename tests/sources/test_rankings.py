"""Tests for components/sources/rankings.py (the value and its parsers), rankings_store.py (the Hub fetch and
the store) and data/refresh_rankings.py. No test touches the network."""

from __future__ import annotations

import importlib.util
import json
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import httpx2
import pytest
from huggingface_hub import constants as hf_constants

from components.sources import rankings as rk
from components.sources.errors import SourceError, describe_error
from components.sources.rankings import (
    RANKINGS,
    TASKS,
    RankedModel,
    Rankings,
    load_snapshot,
    ranked_model_from_info,
)
from components.sources.rankings_store import RankingsStore, fetch_live, resolve_rankings
from tests.helpers import FakeApi, recorded

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def online(monkeypatch):
    """Tests see the Hub as allowed unless they say otherwise (the fakes never touch it)."""
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("SUPPORT_RANKINGS", raising=False)
    monkeypatch.setattr(hf_constants, "HF_HUB_OFFLINE", False)


def entry(model_id: str, rank: int, **extra) -> dict:
    return {"model_id": model_id, "rank": rank, "task": "text-generation", **extra}


def write_snapshot(path: Path, tasks: dict, fetched_at: str = "2026-11-30T06:00:00Z") -> Path:
    path.write_text(json.dumps({"fetched_at": fetched_at, "note": "test snapshot", "tasks": tasks}))
    return path


@pytest.fixture
def snapshot_file(tmp_path: Path) -> Path:
    full = {"downloads": 1000, "likes": 10, "trending_score": 5.0, "num_parameters": 600_000_000}
    tasks = {
        task: {ranking: [{**entry(f"{task}/m{i}", i, **full), "task": task} for i in (1, 2)] for ranking in RANKINGS}
        for task in TASKS
    }
    return write_snapshot(tmp_path / "rankings_test.json", tasks)


def live_rankings() -> Rankings:
    return fetch_live(FakeApi(), limit=100)


# --- snapshot parsing -----------------------------------------------------------------------


def test_load_snapshot_good_file(snapshot_file):
    r = load_snapshot(snapshot_file)
    assert r.origin == "snapshot"
    assert r.source == "rankings_test.json"
    assert r.note == "test snapshot"
    assert r.fetched_at.isoformat() == "2026-11-30T06:00:00+00:00"
    first = r.ranked("text-generation", "trending")[0]
    assert first == RankedModel("text-generation/m1", 1, "text-generation", 1000, 10, 5.0, 600_000_000)
    assert r.task_of("image-text-to-text/m2") == "image-text-to-text"
    assert r.downloads_of("text-generation/m2") == 1000
    assert r.task_of("nobody/nothing") is None and r.downloads_of("nobody/nothing") is None
    assert r.ranked("text-generation", "likes") == () and r.ranked("fill-mask", "trending") == ()
    assert r.label() == "Snapshot rankings_test.json as of 2026-11-30"


def test_load_snapshot_missing_optional_fields_and_rank_order(tmp_path):
    tasks = {"text-generation": {"downloads": [{"model_id": "b/two", "rank": 2}, {"model_id": "a/one", "rank": 1}]}}
    r = load_snapshot(write_snapshot(tmp_path / "s.json", tasks))
    models = r.ranked("text-generation", "downloads")
    assert [m.model_id for m in models] == ["a/one", "b/two"]
    assert models[0] == RankedModel("a/one", 1, "text-generation", None, None, None, None)
    assert r.ranked("text-generation", "trending") == ()
    assert r.downloads_of("a/one") is None


def test_load_snapshot_skips_malformed_entries(tmp_path):
    tasks = {
        "text-generation": {
            "trending": [
                "not an object",
                {"rank": 1},
                {"model_id": "", "rank": 2},
                {"model_id": 42, "rank": 3},
                {"model_id": "bad/rank", "rank": "first"},
                {"model_id": "bad/bool-rank", "rank": True},
                {"model_id": "ok/garbage-counts", "rank": 4, "downloads": "many", "likes": -3, "trending_score": "hot"},
                {"model_id": "ok/no-rank"},
                {"model_id": "ok/garbage-counts", "rank": 9},
            ],
            "likes": [entry("x/y", 1)],
        },
        "fill-mask": {"trending": [entry("x/z", 1)]},
        "image-text-to-text": "not a mapping",
    }
    r = load_snapshot(write_snapshot(tmp_path / "s.json", tasks))
    models = r.ranked("text-generation", "trending")
    # "ok/no-rank" is the 8th entry, so its rank is its position; the duplicate keeps the best rank.
    assert [(m.model_id, m.rank) for m in models] == [("ok/garbage-counts", 4), ("ok/no-rank", 8)]
    assert models[0].downloads is None and models[0].likes is None and models[0].trending_score is None
    assert set(r.lists) == {("text-generation", "trending")}


@pytest.mark.parametrize(
    "content, reason",
    [
        ("{not json", "invalid JSON"),
        ("[]", "'tasks'"),
        ('{"tasks": {}}', "fetched_at"),
        ('{"fetched_at": "yesterday", "tasks": {}}', "fetched_at"),
        ('{"fetched_at": "2026-11-30T06:00:00Z", "tasks": {"text-generation": {"trending": [1, 2]}}}', "no ranked"),
    ],
)
def test_load_snapshot_invalid_file_names_it(tmp_path, content, reason):
    path = tmp_path / "broken_snapshot.json"
    path.write_text(content)
    with pytest.raises(SourceError, match="broken_snapshot.json") as info:
        load_snapshot(path)
    assert reason in str(info.value)
    assert str(tmp_path) not in str(info.value)


def test_load_snapshot_missing_file(tmp_path):
    with pytest.raises(SourceError, match="nowhere.json.*not found"):
        load_snapshot(tmp_path / "nowhere.json")


def test_rankings_is_immutable(snapshot_file):
    r = load_snapshot(snapshot_file)
    with pytest.raises(AttributeError):
        r.origin = "live"  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.lists[("text-generation", "trending")] = ()  # type: ignore[index]
    assert isinstance(r.ranked("text-generation", "trending"), tuple)


# --- live fetch -----------------------------------------------------------------------------


def test_fetch_live_ranks_and_fields():
    api = FakeApi()
    r = fetch_live(api, limit=100)
    assert r.origin == "live" and r.source == "Hub"
    assert len(api.calls) == len(TASKS) * len(RANKINGS)
    for call in api.calls:
        assert call["limit"] == 100
        assert call["sort"] in ("trending_score", "downloads")
        assert {"downloads", "likes", "trendingScore", "safetensors"} <= set(call["expand"])
    for task in TASKS:
        for ranking in RANKINGS:
            models = r.ranked(task, ranking)
            expected = [item["id"] for item in recorded(task, ranking)]
            assert [m.model_id for m in models] == expected
            assert [m.rank for m in models] == list(range(1, len(expected) + 1))
            assert all(m.task == task for m in models)

    qwen = r.ranked("text-generation", "trending")[0]
    assert qwen == RankedModel("Qwen/Qwen3-0.6B", 1, "text-generation", 7351204, 812, 61.0, 751632384)
    gguf = r.ranked("text-generation", "trending")[3]
    assert gguf.model_id == "unsloth/gpt-oss-20b-GGUF" and gguf.num_parameters is None
    smol = r.ranked("text-generation", "trending")[4]
    assert smol.trending_score is None and smol.num_parameters == 3075098624
    assert r.ranked("text-generation", "trending")[1].num_parameters == 21511953984
    downloads = [m.downloads for m in r.ranked("text-generation", "downloads")]
    assert downloads == sorted(downloads, reverse=True)
    assert r.task_of("google/gemma-3-4b-it") == "image-text-to-text"
    assert r.downloads_of("openai-community/gpt2") == 2904118
    assert r.label().startswith("Live Hub rankings, fetched ") and r.label().endswith(" UTC")


def test_fetch_live_respects_limit():
    r = fetch_live(FakeApi(), limit=2)
    assert all(len(r.ranked(t, k)) == 2 for t in TASKS for k in RANKINGS)


def test_parse_model_info_defensively():
    garbage = SimpleNamespace(id="a/b", downloads="12", likes=True, trending_score=float("nan"), safetensors="big")
    assert ranked_model_from_info(garbage, 3, "text-generation") == RankedModel("a/b", 3, "text-generation")
    assert ranked_model_from_info(SimpleNamespace(), 1, "text-generation") is None
    assert ranked_model_from_info(SimpleNamespace(id=None), 1, "text-generation") is None
    per_dtype = SimpleNamespace(id="c/d", safetensors={"parameters": {"BF16": 10, "F32": 5}})
    assert ranked_model_from_info(per_dtype, 1, "text-generation").num_parameters == 15


def test_fetch_live_skips_malformed_keeping_hub_positions():
    class Api:
        def list_models(self, **kwargs):
            return [SimpleNamespace(id=None), SimpleNamespace(id="ok/model", downloads=5), object()]

    r = fetch_live(Api())
    assert [(m.model_id, m.rank, m.downloads) for m in r.ranked("text-generation", "trending")] == [("ok/model", 2, 5)]


def test_fetch_live_empty_answer_raises():
    class Api:
        def list_models(self, **kwargs):
            return iter(())

    with pytest.raises(SourceError, match="no ranked models"):
        fetch_live(Api())


def load_refresh_script():
    spec = importlib.util.spec_from_file_location("refresh_rankings", REPO_ROOT / "data" / "refresh_rankings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_refresh_script_round_trip(tmp_path):
    out = tmp_path / "out" / "rankings_snapshot.json"
    api = FakeApi()
    assert load_refresh_script().main(["--out", str(out), "--limit", "3"], api=api) == 0
    assert {call["limit"] for call in api.calls} == {3}
    written = load_snapshot(out)
    live = fetch_live(FakeApi(), limit=3)
    assert written.origin == "snapshot" and written.source == "rankings_snapshot.json"
    assert dict(written.lists) == dict(live.lists)
    assert abs((written.fetched_at - live.fetched_at).total_seconds()) < 60
    assert json.loads(out.read_text())["fetched_at"].endswith("Z")
    assert list(out.parent.iterdir()) == [out]  # no temporary file left behind


def test_refresh_script_reports_hub_failure(tmp_path):
    class Api:
        def list_models(self, **kwargs):
            raise httpx2.ConnectError("[Errno -3] Temporary failure in name resolution")

    out = tmp_path / "rankings.json"
    assert load_refresh_script().main(["--out", str(out)], api=Api()) == 1
    assert not out.exists()


# --- the store and its fallback chain -------------------------------------------------------


def raise_connect_error() -> Rankings:
    raise httpx2.ConnectError("[Errno -3] Temporary failure in name resolution")


@pytest.fixture
def release():
    """An Event that hanging fakes wait on; set at teardown so no thread outlives the test long."""
    event = threading.Event()
    yield event
    event.set()


def test_store_falls_back_then_swaps_live_without_restart(snapshot_file, release):
    def hang() -> Rankings:
        release.wait(5)
        return live_rankings()

    behaviours = [raise_connect_error, hang, lambda: [1, 2, 3], lambda: Rankings({}, rk._EPOCH, "live", "Hub")]
    store = RankingsStore(snapshot_file, live=True, fetch=lambda: behaviours[0](), read_timeout=0.5)
    store.begin(refresh=False)
    assert store.current().origin == "snapshot" and store.source_status().last_error is None

    assert store.refresh() is False
    assert store.current().origin == "snapshot"
    assert store.source_status().last_error.startswith("ConnectError: ")
    assert store.current().label() == "Snapshot rankings_test.json as of 2026-11-30 (Hub unreachable)"

    behaviours.pop(0)
    assert store.refresh() is False  # the fetch hangs: the refresh gives up at its read timeout
    assert store.current().origin == "snapshot"
    assert "did not answer within 0.5 s" in store.source_status().last_error

    behaviours.pop(0)
    assert store.refresh() is False
    assert "got list" in store.source_status().last_error and store.current().origin == "snapshot"

    behaviours.pop(0)
    assert store.refresh() is False
    assert "no ranked models" in store.source_status().last_error and store.current().origin == "snapshot"
    assert store.current().label().endswith("(live rankings unavailable)")

    behaviours[0] = live_rankings
    assert store.refresh() is True
    current = store.current()
    assert current.origin == "live" and store.source_status().last_error is None
    assert current.ranked("text-generation", "trending")[0].model_id == "Qwen/Qwen3-0.6B"

    # A later failure keeps the live rankings (and their label) and says why in the status.
    behaviours[0] = raise_connect_error
    assert store.refresh() is False
    assert store.current() is current and current.label().startswith("Live Hub rankings, fetched")
    status = store.source_status()
    assert status.last_error.startswith("ConnectError: ") and status.kind == "live" and status.failures == 1


def test_hung_fetch_does_not_overwrite_a_later_result(snapshot_file, release):
    calls = []  # the thread of each read: the store runs each on a worker thread of its own

    def fetch() -> Rankings:
        calls.append(threading.current_thread())
        if len(calls) == 1:
            release.wait(5)
            return Rankings({("text-generation", "trending"): ()}, rk._EPOCH, "live", "stale")
        return live_rankings()

    store = RankingsStore(snapshot_file, live=True, fetch=fetch, read_timeout=0.5)
    store.begin(refresh=False)
    assert store.refresh() is False
    assert store.refresh() is True
    fresh = store.current()
    release.set()
    calls[0].join(5)  # the hung read has returned its stale answer, and its thread has finished with it
    assert not calls[0].is_alive() and store.current() is fresh


def test_start_returns_at_once_and_background_refresh_swaps(snapshot_file, release):
    outcomes = [raise_connect_error, live_rankings]
    answered = []

    def slow_fetch() -> Rankings:
        release.wait()
        answered.append(1)
        return outcomes.pop(0)()

    store = RankingsStore(snapshot_file, live=True, fetch=slow_fetch, refresh_seconds=0.05, read_timeout=30)
    first = store.start()
    # the live fetch can only answer after `release`: start() waited neither for it nor for a read timeout
    assert answered == [] and store.source_status().last_error is None
    assert first.origin == "snapshot" and store.current() is first
    assert store.current().ranked("text-generation", "trending")

    release.set()  # the Hub "answers": first an error, then, one TTL later, rankings
    deadline = time.monotonic() + 5
    while store.current().origin != "live" and time.monotonic() < deadline:
        time.sleep(0.02)
    store.stop()
    assert store.current().origin == "live"


def test_offline_mode_fetches_nothing(snapshot_file, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hf_constants, "HF_HUB_OFFLINE", True)
    calls = []
    store = RankingsStore(snapshot_file, live=True, fetch=lambda: calls.append(1) or live_rankings())
    current = store.start()
    assert store.refresh() is False
    assert calls == []
    assert store._thread is None
    assert current.origin == "snapshot" and store.source_status().next_attempt_at is None
    assert current.label().endswith("(offline mode)")


def test_snapshot_only_store_never_fetches(snapshot_file):
    calls = []
    store = RankingsStore(snapshot_file, live=False, fetch=lambda: calls.append(1) or live_rankings())
    store.start()
    assert store.refresh() is False and calls == [] and store._thread is None


def test_status_hides_tokens_and_local_paths(snapshot_file):
    def fetch() -> Rankings:
        raise OSError(f"cannot open {snapshot_file.parent}/secret/token.txt with hf_abcdefghijklmnopqrstuvwxyz")

    store = RankingsStore(snapshot_file, live=True, fetch=fetch)
    store.begin(refresh=False)
    store.refresh()
    status = store.source_status().last_error
    assert "token.txt" in status
    assert str(snapshot_file.parent) not in status and "hf_abcdefghij" not in status
    url_error = httpx2.ConnectError("cannot reach https://huggingface.co/api/models?limit=100")
    assert "https://huggingface.co/api/models" in describe_error(url_error)


# --- resolution from --rankings / SUPPORT_RANKINGS ------------------------------------------


@pytest.mark.parametrize("source", [None, "", "hub", " HUB "])
def test_resolve_hub_uses_bundled_snapshot(snapshot_file, monkeypatch, source):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hf_constants, "HF_HUB_OFFLINE", True)
    bundled = snapshot_file.with_name("rankings_snapshot.json")
    snapshot_file.rename(bundled)
    monkeypatch.setattr(rk, "BUNDLED_SNAPSHOT", bundled)
    store = resolve_rankings(source)
    assert store.live is True
    store.begin()
    assert store.current().origin == "snapshot"
    assert store.current().label() == "Bundled snapshot as of 2026-11-30 (offline mode)"
    store.start()
    assert store._thread is None


def test_resolve_reads_env(snapshot_file, monkeypatch):
    monkeypatch.setenv("SUPPORT_RANKINGS", str(snapshot_file))
    store = resolve_rankings(None)
    assert store.live is False and store.start().source == "rankings_test.json"


def test_resolve_file_is_snapshot_only(snapshot_file):
    store = resolve_rankings(str(snapshot_file))
    assert store.live is False
    assert store.start().source == "rankings_test.json"
    assert store.current().label() == "Snapshot rankings_test.json as of 2026-11-30"


def test_resolve_reads_nothing_and_a_bad_path_raises_at_begin(tmp_path):
    missing = resolve_rankings(str(tmp_path / "missing.json"))
    with pytest.raises(RuntimeError, match="start"):
        missing.current()  # nothing served before begin()
    with pytest.raises(SourceError, match="missing.json"):
        missing.begin()
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(SourceError, match="bad.json"):
        resolve_rankings(str(bad)).begin()


def test_resolve_hub_without_bundled_snapshot_is_empty_not_a_crash(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hf_constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(rk, "BUNDLED_SNAPSHOT", tmp_path / "rankings_snapshot.json")
    store = resolve_rankings("hub")
    current = store.start()
    assert current.is_empty()
    assert "rankings_snapshot.json" in current.note
    assert current.ranked("text-generation", "trending") == ()
    assert current.label() == "No rankings available (offline mode)"


def test_bundled_snapshot_if_present_is_valid():
    if not rk.BUNDLED_SNAPSHOT.exists():
        pytest.skip("data/rankings_snapshot.json not generated yet")
    r = load_snapshot(rk.BUNDLED_SNAPSHOT)
    assert all(r.ranked(task, ranking) for task in TASKS for ranking in RANKINGS)
