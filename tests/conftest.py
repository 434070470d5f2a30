"""Fixtures the tests share; plain helpers live in `tests/helpers.py`. The environment is kept offline."""

from __future__ import annotations

import functools
import inspect
import os
import re
import shutil
from datetime import UTC
from pathlib import Path

import pytest

from assets.make_screenshot import CHROMIUM_ARGS  # one set of launch flags for tests and screenshots
from tests.helpers import NEW_CC, OLD_CC, ROOT, SAMPLE_ARGS, SPACE_ENV, STARTS, Server, row, write

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

try:  # Playwright's assertions wait 5 s by default; on 2 busy cores a chart's first draw can take longer
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
except ImportError:  # the browser tests then do not run
    pass


def find_chromium() -> str | None:
    """The browser the tests drive: $CHROMIUM when set (empty or missing = none), else chromium on PATH."""
    if "CHROMIUM" in os.environ:
        path = os.environ["CHROMIUM"]
        return path if path and os.access(path, os.X_OK) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


CHROMIUM = find_chromium()
NODE_MAJOR = 24


def find_node() -> str | None:
    """A Node 24 or newer, what Gradio's server-side rendering needs (tests/node.sh installs one; never here):
    $GRADIO_NODE_PATH when set (empty = none), else `node` on PATH, else the copy tests/node.sh put in .node/."""
    import subprocess

    if "GRADIO_NODE_PATH" in os.environ:
        candidates = [os.environ["GRADIO_NODE_PATH"]]
    else:
        candidates = [shutil.which("node") or "", *map(str, (ROOT / ".node" / "node_modules").glob("node-*/bin/node"))]
    for path in filter(None, candidates):
        try:
            version = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10).stdout
        except OSError:
            continue
        major = re.match(r"v(\d+)\.", version)
        if major and int(major.group(1)) >= NODE_MAJOR:
            return path
    return None


NODE = find_node()
INSTALL_NODE = "bash tests/node.sh installs one; tests/run.sh runs it"
INSTALL_CHROMIUM = "sudo apt-get update && sudo apt-get install -y chromium fonts-dejavu-core"
# A test needs Chromium when it asks for pytest-playwright's browser (page, context, ...) or is marked so.
BROWSER_FIXTURES = {"browser_type", "browser", "context", "page"}
SKIPPED_FOR_CHROMIUM = pytest.StashKey[int]()


def needs_browser(item: pytest.Item) -> bool:
    return (
        bool(BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())))
        or item.get_closest_marker("browser") is not None
    )


# The fast tier, `pytest -m "not slow"` (README, "Test it"), leaves out what is slow by what it starts: a browser
# (found by fixture, above); the app in a process of its own (found in the source of the test and of each fixture
# it uses, or of a function of their module they call: `Server(`, the bounds tests' `started(tmp_path_factory`, or
# `sys.executable, str(ROOT / "app.py")`, a command line), or marked `app` by hand (a fixture asked for by name);
# and these files: a deployment behind nginx, crowds of connections, the benchmarks. Each test gets its kind's
# marker and `slow`, so `-m "not browser"` or `-m app` also work.
SLOW_FILES = {
    "deploy": ("deploy/", "e2e/test_replicas.py"),
    "load": ("hardening/test_connections.py", "hardening/test_connections_on_another_gradio.py",
             "hardening/test_peer_connections.py", "hardening/test_webhook_burst.py"),
    "benchmark": ("e2e/test_benchmarks.py",),
}  # fmt: skip
STARTS_APP = re.compile(r"\bServer\(|\bstarted\(tmp_path_factory|sys\.executable, str\(ROOT / \"app\.py\"\)")
TESTS = Path(__file__).resolve().parent


@functools.cache
def starts_app(function, depth: int = 2) -> bool:
    """Whether `function` starts the app, itself or through a function of its module it calls (`depth` deep)."""
    try:
        if STARTS_APP.search(inspect.getsource(function)):
            return True
    except (OSError, TypeError):
        return False
    if depth == 0 or not hasattr(function, "__code__"):
        return False
    module = function.__globals__.get("__name__")
    called = (function.__globals__.get(name) for name in function.__code__.co_names)
    return any(
        inspect.isfunction(f) and f is not function and f.__module__ == module and starts_app(f, depth - 1)
        for f in called
    )


def slow_kinds(item: pytest.Item) -> list[str]:
    """Why a test is left out of the fast tier (none: it is in it)."""
    path = Path(item.path).resolve().relative_to(TESTS).as_posix()
    kinds = [kind for kind, files in SLOW_FILES.items() if path.startswith(files)]
    if needs_browser(item):
        kinds.append("browser")
    used = getattr(item, "_fixtureinfo", None)
    functions = [getattr(item, "function", None)]
    functions += [defs[-1].func for defs in (used.name2fixturedefs.values() if used else ()) if defs]
    if item.get_closest_marker("app") or any(starts_app(f) for f in functions if f is not None):
        kinds.append("app")
    return kinds


def pytest_collection_modifyitems(config, items):
    for item in items:
        kinds = slow_kinds(item)
        for kind in [*kinds, "slow"] if kinds else ():
            item.add_marker(kind)
    if CHROMIUM:
        return
    skip = pytest.mark.skip(reason=f"needs Chromium, which is not installed ({INSTALL_CHROMIUM})")
    browser_tests = [item for item in items if needs_browser(item)]
    for item in browser_tests:
        item.add_marker(skip)
    config.stash[SKIPPED_FOR_CHROMIUM] = len(browser_tests)


class EachModuleTogether:
    """pytest-playwright parametrizes its browser per session (`browser_name`), and pytest then runs every browser
    test of the session first, apart from the other tests of its module: a module's app (a `scope="module"`
    fixture) was started twice, once for each half (the nginx deployment's took 50 s). Run after that reordering,
    this puts each module's tests back together, in the order they had; with one browser, Chromium is still
    started once."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items):
        items.sort(key=lambda item: Path(item.path).parts)  # stable: each module's own order is kept


def pytest_configure(config):
    config.pluginmanager.register(EachModuleTogether(), "each-module-together")


# Under pytest-xdist (tests/run.sh) each worker collects and starts apps: it hands its counts to the controller,
# which prints the summary. Every worker collects every test, so the Chromium count is any worker's.
WORKERS_SKIPPED: list[int] = []


def pytest_sessionfinish(session):
    handed = getattr(session.config, "workeroutput", None)  # set only in an xdist worker
    if handed is not None:
        handed["starts"] = list(STARTS)
        handed["skipped_for_chromium"] = session.config.stash.get(SKIPPED_FOR_CHROMIUM, 0)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    handed = getattr(node, "workeroutput", {})
    STARTS.extend(handed.get("starts", ()))
    WORKERS_SKIPPED.append(handed.get("skipped_for_chromium", 0))


def pytest_terminal_summary(terminalreporter, config):
    if STARTS:  # what the app processes cost: the first thing to share when the suite is slow
        terminalreporter.write_line(
            f"{len(STARTS)} app processes served, after {sum(STARTS):.0f} s of start-up in all (tests.helpers.Server)"
        )
    if skipped := config.stash.get(SKIPPED_FOR_CHROMIUM, 0) or max(WORKERS_SKIPPED, default=0):
        terminalreporter.write_line(
            f"Chromium not found, so {skipped} browser tests were skipped. To run them: {INSTALL_CHROMIUM}"
        )


@pytest.fixture
def sample_dir(tmp_path, monkeypatch):
    """A one-row bundled sample, with the Hub not switched off: what the store falls back to."""
    from components.sources import dataset_store

    folder = tmp_path / "sample"
    write(folder / "s.parquet", [row("sample/model")])
    monkeypatch.setattr(dataset_store, "SAMPLE_DIR", folder)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    return folder


@pytest.fixture
def world(tmp_path):
    """A small dataset on three stacks and rankings for both tasks: (snapshot, rankings)."""
    from datetime import datetime

    from components.sources.dataset import load
    from components.sources.rankings import RankedModel, Rankings

    write(tmp_path / "new-4.parquet", [
        row("Qwen/Qwen3-0.6B", cc=NEW_CC, lib_version="4.57.1"),
        row("meta-llama/Llama-3.1-8B-Instruct", cc=NEW_CC, lib_version="4.57.1", tp=2, hbm_capacity_gb=48.0,
            result="FAIL", error="Traceback (most recent call last):\n  File run.py\nNCC_EOOM001: out of memory",
            english=None, cpu_match=None),
        row("google/gemma-3-4b-it", cc=NEW_CC, lib_version="4.57.1", result="EXCLUDED", exclusion="not prioritized",
            tp=None, wall_s=None, hbm_peak_gb=None, hbm_capacity_gb=None),
        row("evil/<img src=x onerror=alert(1)>", cc=NEW_CC, lib_version="4.57.1", result="MAYBE",
            notes="<script>alert(2)</script>", run_py="print('<script>')"),
    ])  # fmt: skip
    write(tmp_path / "new-5.parquet", [row("Qwen/Qwen3-0.6B", cc=NEW_CC, lib_version="5.0.0", wall_s=500)])
    write(tmp_path / "old.parquet", [
        row("Qwen/Qwen3-0.6B", cc=OLD_CC, lib_version="4.50.0", result="FAIL", error="boom"),
        row("meta-llama/Llama-3.1-8B-Instruct", cc=OLD_CC, lib_version="4.50.0", tp=2),
    ], drop=("exclusion",))  # fmt: skip
    snapshot = load(tmp_path)

    downloads = {"Qwen/Qwen3-0.6B": 9000, "meta-llama/Llama-3.1-8B-Instruct": 8000, "google/gemma-3-4b-it": 500}

    def ranked(task, ids):
        return tuple(
            RankedModel(m, i + 1, task, downloads=downloads.get(m, 10), likes=10, trending_score=50.0 - i)
            for i, m in enumerate(ids)
        )

    lists = {
        ("text-generation", "trending"): ranked("text-generation", ["meta-llama/Llama-3.1-8B-Instruct", "new/untested-7B", "Qwen/Qwen3-0.6B"]),
        ("text-generation", "downloads"): ranked("text-generation", ["Qwen/Qwen3-0.6B", "meta-llama/Llama-3.1-8B-Instruct"]),
        ("image-text-to-text", "trending"): ranked("image-text-to-text", ["google/gemma-3-4b-it", "vlm/untested"]),
        ("image-text-to-text", "downloads"): ranked("image-text-to-text", ["google/gemma-3-4b-it"]),
    }  # fmt: skip
    rankings = Rankings(
        lists=lists, fetched_at=datetime(2026, 11, 30, tzinfo=UTC), origin="snapshot", source="test.json"
    )
    return snapshot, rankings


@pytest.fixture
def libraries(tmp_path):
    """Transformers, diffusers and sentence-transformers stacks on one compiler, with rankings: (snapshot, rankings)."""
    from datetime import datetime

    from components.sources.dataset import load
    from components.sources.rankings import Rankings

    write(tmp_path / "tf.parquet", [row("Qwen/Qwen3-0.6B", cc=NEW_CC, lib_version="4.57.1")])
    write(tmp_path / "tf5.parquet", [row("Qwen/Qwen3-0.6B", cc=NEW_CC, lib_version="5.0.0")])
    write(tmp_path / "sd.parquet", [
        row("stabilityai/sd-turbo", cc=NEW_CC, library="diffusers", lib_version="0.36.0", transformers="4.57.1",
            diffusers="0.36.0", run_py="from diffusers import AutoPipelineForText2Image\n"),
    ])  # fmt: skip
    st = row("BAAI/bge-small-en-v1.5", cc=NEW_CC, library="sentence-transformers", lib_version="5.1.2", neuron_cores=1)
    del st["tp"]
    write(tmp_path / "st.parquet", [st])
    write(tmp_path / "old.parquet", [row("Qwen/Qwen3-0.6B", cc=OLD_CC, lib_version="4.50.0")])
    rankings = Rankings(lists={}, fetched_at=datetime(2026, 11, 30, tzinfo=UTC), origin="snapshot", source="t.json")
    return load(tmp_path), rankings


@pytest.fixture(scope="session")
def bundled_sample():
    """The bundled sample (data/sample) as a snapshot, loaded once: tests only read it."""
    from components.sources.dataset import load

    return load(ROOT / "data" / "sample")


@pytest.fixture
def chart_snap(tmp_path):
    """Two stacks of one library with passes, fails and an exclusion, as the charts read them."""
    from tests.queries.chart_runs import chart_snapshot

    return chart_snapshot(tmp_path)


# ---- a launched app, for the API and browser tests ------------------------------------------


@pytest.fixture(scope="session")
def sample_app():
    """The app serving the bundled sample and rankings snapshot (as with no network), no webhook secret (its
    webhook route off). Tests only read from it."""
    server = Server(*SAMPLE_ARGS).wait()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def hostile_app(tmp_path_factory):
    """The app on the bundled sample plus rows whose every text field is hostile (`tests/hardening/hostile.py`),
    its output in `.log`: only read, by the API's and the browser's hostile-data tests alike."""
    from tests.hardening.hostile import hostile_rows

    folder = tmp_path_factory.mktemp("hostile") / "data"
    shutil.copytree(ROOT / "data" / "sample", folder)
    write(folder / "hostile.parquet", hostile_rows())
    log = tmp_path_factory.mktemp("log") / "app.log"
    server = Server("--dataset", str(folder), "--rankings", str(ROOT / "data" / "rankings_snapshot.json"), log=log)
    yield server.wait()
    server.stop()


@pytest.fixture(scope="session")
def space_app():
    """The app on the sample as on a Space (`SPACE_ENV`: no server-side rendering), behind its proxy at
    test-space.hf.space: shared by the tests of shared links and of client addresses, each with addresses of
    its own."""
    server = Server(*SAMPLE_ARGS, env=SPACE_ENV).wait()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def sample_http(sample_app):
    """An HTTP client on `sample_app`'s address."""
    import httpx

    with httpx.Client(base_url=sample_app.url, timeout=60) as client:
        yield client


@pytest.fixture(scope="session")
def node() -> str:
    """The Node that Gradio's server-side rendering would run on, as on a Space; without it the test skips."""
    if NODE is None:
        pytest.skip(
            f"needs Node {NODE_MAJOR} or newer for a Space's server-side rendering, and none was found ({INSTALL_NODE})"
        )
    return NODE


@pytest.fixture(scope="session")
def client(sample_app):
    from gradio_client import Client

    return Client(sample_app.url, verbose=False)


@pytest.fixture(scope="session")
def browser_type_launch_args():
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
