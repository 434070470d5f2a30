"""Refresh under load, and the queue's limits.

The app is built with `app.build` and served in this process with `mount.start` (the limits
`python app.py` uses), so the test can swap the data while 20 clients call `/search` and `/lookup`
over HTTP. Every row of generation g has `wall_s` in [g*10000, g*10000+9999] and rankings of
generation g give each model `downloads` = g*1_000_000 + rank, so an answer that mixes two loads shows.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
import pytest

import app
from components.runtime import settings
from components.sources import dataset_store
from components.sources.app_sources import Sources
from components.sources.dataset import load
from components.sources.rankings import RankedModel, Rankings
from components.sources.rankings_store import RankingsStore
from components.web import server
from components.web.gradio import mount
from components.web.gradio.pages.models import ModelsPage
from tests.helpers import ROOT, Served, call, free_port, page_opened, row, write

# Gradio's own queue statistics use a pandas option pandas 3 deprecates; not this app's concern.
pytestmark = pytest.mark.filterwarnings("ignore::pandas.errors.Pandas4Warning")

CC_NEW, CC_OLD = "2.28.7631.0+82129205", "2.21.18209.0+043b1bf7"
MODELS = [f"org/model-{i:02d}" for i in range(40)]
CLIENTS = 20
CALLS_PER_CLIENT = 12


def generation_rows(g: int, prefix: str = "org") -> list[dict]:
    return [
        row(f"{prefix}/model-{i:02d}", cc=cc, lib_version="5.0.0", wall_s=g * 10_000 + i + 100 * s)
        for s, cc in enumerate((CC_NEW, CC_OLD))
        for i in range(len(MODELS) + g)  # generation g has g more models: /stacks shows it too
    ]


def generation_rankings(g: int) -> Rankings:
    lists = {
        (task, ranking): tuple(
            RankedModel(m, rank, task, downloads=g * 1_000_000 + rank) for rank, m in enumerate(MODELS[:10], start=1)
        )
        for task in ("text-generation", "image-text-to-text")
        for ranking in ("trending", "downloads")
    }
    return Rankings(lists, datetime(2026, 11, g, tzinfo=UTC), "live", "Hub")


def generation_of_rows(rows: list[dict]) -> set[int]:
    return {r["wall_s"] // 10_000 for r in rows if r.get("wall_s") is not None}


# ---- the launched app, swapping while it answers ------------------------------------------------


@pytest.fixture
def swapping_app(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    folders = []
    for g in (1, 2):
        write(tmp_path / f"gen{g}" / "rows.parquet", generation_rows(g))
        folders.append(tmp_path / f"gen{g}")
    loads = {"n": 0}

    def loader(source):  # every refresh reads the other generation afresh: a new snapshot, cold caches
        loads["n"] += 1
        return load(folders[loads["n"] % 2], kind="hub", label=f"gen{loads['n'] % 2 + 1}")

    fetches = {"n": 0}

    def fetch():
        fetches["n"] += 1
        return generation_rankings(fetches["n"] % 2 + 1)

    datasets = dataset_store.DatasetStore(str(folders[0]), loader=loader, refresh_seconds=3600)
    datasets.start()
    rankings = RankingsStore(ROOT / "data" / "rankings_snapshot.json", live=True, fetch=fetch, read_timeout=5)
    rankings.begin(refresh=False)
    rankings.refresh()
    port = free_port()
    sources = Sources(datasets, rankings)
    running = mount.start(app.build(sources), sources, port=port)
    yield f"http://127.0.0.1:{port}", datasets, rankings, loads, fetches
    running.stop()


def test_20_clients_search_while_the_data_and_rankings_are_swapped(swapping_app):
    url, datasets, rankings, loads, fetches = swapping_app
    stop = threading.Event()

    def swap_forever():
        while not stop.is_set():
            assert datasets.refresh() is True
            assert rankings.refresh() is True
            time.sleep(0.02)

    failures: list[str] = []
    seen_generations: set[int] = set()

    def swapped_enough() -> bool:
        return loads["n"] > 5 and fetches["n"] > 5

    def client_session(n: int) -> int:
        """At least CALLS_PER_CLIENT calls, and on until the data has been swapped a few times (calls answered
        beside the queue are fast enough to finish before; bounded by a deadline)."""
        answers, i, deadline = 0, 0, time.monotonic() + 60
        with httpx.Client(base_url=url, timeout=60) as client:
            while i < CALLS_PER_CLIENT or (not swapped_enough() and time.monotonic() < deadline):
                kind = (n + i) % 4
                i += 1
                try:
                    if kind == 0:
                        rows = call(
                            client, "search", query="model", view="selected", task="", neuronx_cc="", library_version=""
                        )
                        gens = generation_of_rows(rows)
                        assert len(gens) == 1 and len(rows) == len(MODELS) + gens.pop(), "rows of two loads"
                    elif kind == 1:
                        rows = call(client, "search", query="", view="trending", task="text-generation", neuronx_cc="",
                                    library_version="")  # fmt: skip
                        assert len(generation_of_rows(rows)) == 1, "dataset rows of two loads"
                        assert len({r["downloads"] // 1_000_000 for r in rows}) == 1, "rankings of two loads"
                    elif kind == 2:
                        answer = call(client, "lookup", model_id=MODELS[n], neuronx_cc="", library_version="")
                        gens = generation_of_rows([answer, *answer["history"]])
                        assert len(gens) == 1 and len(answer["history"]) == 2, "a row and a history of two loads"
                        seen_generations.update(gens)
                    else:
                        stacks = call(client, "stacks")
                        assert len({s["models"] for s in stacks}) == 1, "stacks of two loads"
                    answers += 1
                except Exception as exc:  # noqa: BLE001 — every failure is collected and reported
                    failures.append(f"client {n} call {i}: {type(exc).__name__}: {exc}"[:300])
        return answers

    swapper = threading.Thread(target=swap_forever, daemon=True)
    swapper.start()
    started = time.monotonic()
    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            answered = sum(pool.map(client_session, range(CLIENTS)))
    finally:
        stop.set()
        swapper.join(10)
    elapsed = time.monotonic() - started
    assert failures == []
    assert answered >= CLIENTS * CALLS_PER_CLIENT
    assert swapped_enough(), "the data was swapped while the clients searched"
    assert seen_generations == {1, 2}
    print(f"{answered} answers in {elapsed:.1f} s across {loads['n']} dataset and {fetches['n']} rankings loads")


# ---- one read of the stores per event ------------------------------------------------------------


@pytest.fixture
def counting(tmp_path):
    write(tmp_path / "rows.parquet", generation_rows(1))
    return Served(load(tmp_path), "dataset"), Served(generation_rankings(1))


def reads(stores, handler, *args, **kwargs) -> tuple[int, ...]:
    before = [s.reads for s in stores]
    handler(*args, **kwargs)
    return tuple(s.reads - b for s, b in zip(stores, before))


def test_page_events_read_each_store_once(counting):
    datasets, rankings = counting
    tab = ModelsPage(Sources(datasets, rankings))
    assert reads(counting, page_opened, tab, {"model": MODELS[1], "view": "trending"}) == (1, 1)
    old = {
        "view": "selected",
        "cc": CC_OLD,
        "library": "transformers",
        "version": "5.0.0",
        "link": f"?model={MODELS[1]}",
    }
    assert reads(counting, tab.on_stack, **old) == (1, 1)
    assert reads(counting, tab.on_library, **old) == (1, 1)
    assert reads(counting, tab.table, search="model", view="downloads") == (1, 1)
    assert reads(counting, tab.on_view, search="model", view="trending") == (1, 1)
    assert reads(counting, tab.more, search="model", view="selected", rows="100")[0] == 1


def test_the_other_tabs_read_the_data_once(counting):
    from components.web.gradio.pages.charts import ChartsPage
    from components.web.gradio.pages.compare import ComparePage
    from components.web.routes.downloads import Downloads

    datasets, rankings = counting
    sources = Sources(datasets, rankings)
    assert reads(counting, ComparePage(sources).on_open, None, None)[0] == 1
    assert reads(counting, ComparePage(sources).on_change, None, None)[0] == 1
    assert reads(counting, ChartsPage(sources).on_open, None)[0] == 1
    assert reads(counting, ChartsPage(sources).on_stack, None)[0] == 1
    assert reads(counting, Downloads(sources).file, "csv", {"q": "model"}) == (1, 1)


# ---- the queue lets many people in at once -----------------------------------------------------


class SlowStore(Served):
    """A DatasetStore stand-in whose every read takes `delay` seconds (sleeping, so off the GIL)."""

    def __init__(self, snapshot, delay: float):
        super().__init__(snapshot, "dataset")
        self.snapshot, self.delay = snapshot, delay
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()

    def current(self):
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(self.delay)
        with self.lock:
            self.running -= 1
        return self.snapshot


def test_the_queue_runs_16_searches_at_once_not_one(tmp_path):
    write(tmp_path / "rows.parquet", generation_rows(1))
    slow = SlowStore(load(tmp_path), delay=0.5)
    rankings = RankingsStore(ROOT / "data" / "rankings_snapshot.json", live=False)
    rankings.begin()
    port = free_port()
    sources = Sources(slow, rankings)
    running = mount.start(app.build(sources), sources, port=port)
    try:
        url = f"http://127.0.0.1:{port}"

        def one(n: int):
            with httpx.Client(base_url=url, timeout=60) as client:
                return call(client, "search", query=f"model-{n:02d}", view="selected", task="", neuronx_cc="",
                            library_version="")  # fmt: skip

        with ThreadPoolExecutor(settings.EVENT_CONCURRENCY.value) as pool:
            answers = list(pool.map(one, range(settings.EVENT_CONCURRENCY.value)))
    finally:
        running.stop()
    assert all(len(a) == 1 for a in answers)
    # how many reads of the store overlapped (one at a time: 1), counted by the store, not timed
    assert slow.most >= settings.EVENT_CONCURRENCY.value // 2, slow.most


def test_the_limits_document_states_the_limits_app_py_sets():
    readme = " ".join((ROOT / "docs" / "limits.md").read_text(encoding="utf-8").split())
    assert f"Up to {settings.EVENT_CONCURRENCY.value} calls of each event" in readme
    assert (
        f"{settings.WORKER_THREADS.value} worker threads" in readme
        and f"at most {settings.QUEUE_SIZE.value} events wait" in readme
    )
    assert f"anything over {server.MAX_FILE_SIZE.upper().replace('KB', ' KB')}" in readme
