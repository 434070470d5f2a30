"""Helpers the tests share: small Parquet files made on the spot, and the app started as a person would.

Fixtures live in `conftest.py`; this module holds plain functions and classes, imported as `tests.helpers`.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import islice
from pathlib import Path
from typing import BinaryIO
from unittest import mock

import pyarrow as pa
import pyarrow.parquet as pq
from huggingface_hub.hf_api import ModelInfo

from components.sources import dataset
from components.sources.listing import Listing
from components.sources.rankings_store import HUB_SORT
from components.sources.snapshot import Snapshot

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
NEW_CC, OLD_CC = "2.28.7631.0+82129205", "2.9.1.0+aaaaaaaa"


def row(model_id="org/model-1B", cc="2.28.7631.0+82129205", lib_version="4.57.1", **fields) -> dict:
    """A plausible dataset row; override any field."""
    base = {
        "model_id": model_id,
        "library": "transformers",
        "tp": 1,
        "runner": "single-core",
        "result": "PASS",
        "notes": None,
        "error": None,
        "exclusion": None,
        "wall_s": 600,
        "hbm_peak_gb": 6.5,
        "hbm_capacity_gb": 24.0,
        "cpu_match": "match",
        "english": None,
        "neuronx_cc": cc,
        "library_version": lib_version,
        "transformers": lib_version,
        "accelerate": "1.10.1",
        "torch_neuronx": "2.9.0.2.11.19912+e48cd891",
        "torch": "2.9.0",
        "nki": "0.1.0",
        "python": "3.11.13",
        "neuron_driver": "2.24.7.0",
        "tested_at": pa.scalar(1764000000000, pa.timestamp("ms", tz="UTC")).as_py(),
        "run_py": f"# run {model_id}\n",
    }
    base.update(fields)
    return base


def write(path: Path, rows: list[dict], drop: tuple[str, ...] = (), schema: pa.Schema | None = None) -> Path:
    """Write rows to a Parquet file, leaving out the `drop` columns (schema drift)."""
    rows = [{k: v for k, v in r.items() if k not in drop} for r in rows]
    table = pa.Table.from_pylist(rows, schema=schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    return path


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


STARTS: list[float] = []  # seconds each `Server` took from its start until it served (the suite's summary counts them)


class Server:
    """`python app.py` in a subprocess, as a person would start it (`script`: another launcher of it)."""

    def __init__(self, *args: str, env: dict | None = None, script: Path | None = None, log: Path | None = None):
        import subprocess
        import sys

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full_env = {**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False", **(env or {})}
        self.log = open(log or os.devnull, "w")  # `log`: a file that gets the app's output
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, str(script or ROOT / "app.py"), *args, "--port", str(self.port)],
            cwd=ROOT, env=full_env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def wait(self, timeout: float = 90) -> Server:
        import urllib.request

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"app.py exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as r:
                    if r.status == 200:
                        STARTS.append(time.monotonic() - self.started)
                        return self
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"app.py did not serve {self.url} within {timeout} s")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except Exception:  # noqa: BLE001
            self.proc.kill()
        self.log.close()


def call(client, name: str, **params):
    """One named-endpoint call over plain HTTP (an httpx.Client on the app's URL), as any client makes
    it: POST every argument, then read the event stream. Returns the answer."""
    import re

    posted = client.post(f"/gradio_api/call/{name}", json={"data": list(params.values())})
    posted.raise_for_status()
    stream = client.get(f"/gradio_api/call/{name}/{posted.json()['event_id']}")
    stream.raise_for_status()
    events = re.findall(r"^event: (\w+)\ndata: (.*)$", stream.text, re.MULTILINE)
    kinds = [kind for kind, _ in events]
    assert kinds and kinds[-1] == "complete", stream.text[:300]
    return json.loads(events[-1][1])[0]


SAMPLE_ARGS = ("--dataset", str(ROOT / "data" / "sample"), "--rankings", str(ROOT / "data" / "rankings_snapshot.json"))
SPACE_ID, SPACE_SECRET = "aws-neuron/torch-neuronx-support", "space-test-secret"
# a Space's variables without server-side rendering (`space_env` asks for it): the `space_app` fixture's
SPACE_ENV = {"SYSTEM": "spaces", "SPACE_ID": "test/space", "SPACE_HOST": "test-space.hf.space"}


def space_env(node: str) -> dict[str, str]:
    """What a Space sets for a Gradio app, server-side rendering asked for (its secrets arrive as env variables too)."""
    return {
        "GRADIO_SSR_MODE": "true",
        "GRADIO_NODE_PATH": node,
        "SYSTEM": "spaces",
        "SPACE_ID": SPACE_ID,
        "SPACE_HOST": "aws-neuron-torch-neuronx-support.hf.space",
        "GRADIO_SERVER_NAME": "0.0.0.0",
        "WEBHOOK_SECRET": SPACE_SECRET,
    }


# ---- the Hub, answered from recorded responses -------------------------------------------------


def recorded(task: str, ranking: str) -> list[dict]:
    return json.loads((FIXTURES / f"hub_list_models_{task}_{ranking}.json").read_text())["response"]


class FakeApi:
    """Answers `list_models` from the recorded responses, as ModelInfo objects like HfApi does."""

    def __init__(self):
        self.calls: list[dict] = []

    def list_models(self, **kwargs):
        self.calls.append(kwargs)
        ranking = {v: k for k, v in HUB_SORT.items()}[kwargs["sort"]]
        items = recorded(kwargs["pipeline_tag"], ranking)
        return (ModelInfo(**{**item, "siblings": None}) for item in islice(items, kwargs.get("limit")))


class FakeHub(BaseHTTPRequestHandler):
    """The one fake Hub over HTTP, serve it with `fake_hub(mode)`. A broken Hub answers every request the way
    `mode` says: "500" (an Internal Error), "slow" (no answer for 40 s, past every timeout) or "garbage" (200
    with a body that is not JSON and carries markup). In mode "models", `/api/models/<org>/<name>` answers by
    the name's start: ok-* (`RECORD` with that id), 404-*, 500-*, garbage-*, slow-* (3 s late), other-* (another
    model's record); halfway-* sets `asked` and answers half a second later."""

    mode = "500"
    GARBAGE = b"{not json, <script>garbage</script>"
    RECORD = {
        "id": "org/Fine-Tune-7B",
        "pipeline_tag": "text-generation",
        "config": {"architectures": ["LlamaForCausalLM"], "model_type": "llama"},
        "safetensors": {"parameters": {"BF16": 8_030_000_000}, "total": 8_030_000_000},
    }
    asked = threading.Event()
    paths: list[str] = []  # every path asked of any FakeHub in this process, in order

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        FakeHub.paths.append(self.path)
        if self.mode == "models":
            status, body = self.model_answer()
        elif self.mode == "slow":
            time.sleep(40)
            return
        else:
            status, body = (500, b'{"error": "Internal Error"}') if self.mode == "500" else (200, self.GARBAGE)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if status == 404:
            self.send_header("X-Error-Code", "RepoNotFound")
        self.end_headers()
        self.wfile.write(body)

    do_HEAD = do_GET

    def model_answer(self) -> tuple[int, bytes]:
        model_id = self.path.split("?")[0].removeprefix("/api/models/")
        name = model_id.rsplit("/", 1)[-1]
        if name.startswith("slow"):
            time.sleep(3)
        elif name.startswith("halfway"):
            FakeHub.asked.set()
            time.sleep(0.5)
        elif name.startswith("404"):
            return 404, b'{"error": "Repository not found"}'
        elif name.startswith("500"):
            return 500, b'{"error": "Internal Error"}'
        elif name.startswith("garbage"):
            return 200, b"{not json <script>alert(1)</script>"
        elif name.startswith("other"):
            model_id = "someone/else"
        return 200, json.dumps({**self.RECORD, "id": model_id}).encode()


@contextmanager
def fake_hub(mode: str) -> Iterator[str]:
    """A `FakeHub` in `mode` on 127.0.0.1 for the block; yields its address (for HF_ENDPOINT)."""
    if mode not in ("500", "slow", "garbage", "models"):
        raise ValueError(f"unknown fake Hub mode {mode!r}")
    server = ThreadingHTTPServer(("127.0.0.1", 0), type("Hub", (FakeHub,), {"mode": mode}))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# ---- stores that serve a fixed value, for handlers tested without a refresh ------------------------


class Served:
    """A store that always serves one value and counts its reads (a handler that reads twice could
    answer from two loads); its status says nothing failed."""

    def __init__(self, value, source_name: str = "source"):
        self.value, self.reads, self.source_name = value, 0, source_name

    def current(self):
        self.reads += 1
        return self.value

    def source_status(self):
        from components.sources.refresh import SourceStatus

        return SourceStatus(self.source_name, "local", None, None, 0, None, None, False)


def served(snapshot, rankings=None, records=None):
    """`Sources` serving these values (no records: an empty set, no Hub look-ups)."""
    from components.sources.app_sources import Sources
    from components.sources.rankings import empty_rankings

    return Sources(Served(snapshot, "dataset"), Served(rankings or empty_rankings("none")), records)


def run_async(coroutine):
    """`asyncio.run` in a thread of its own: Playwright's sync API may keep an event loop in the test's."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=60)


HANG_GUARD = 60.0  # seconds: only a guard against a hang, never a speed figure (those are in benchmarks/)


def returns_without_waiting(work: Callable[[], object], guard: float = HANG_GUARD) -> object:
    """`work()`'s answer, from a thread of its own; fails when it is still running after `guard` seconds.
    A test that gives the code something to wait for (a wait of minutes, an Event never set) proves with it
    that the code did not wait, however slow the machine."""
    answer: list[object] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            answer.append(work())
        except BaseException as error:  # noqa: BLE001 — raised again in the test's own thread
            failure.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(guard)
    assert not thread.is_alive(), f"still waiting after {guard:g} s"
    if failure:
        raise failure[0]
    return answer[0]


def page_opened(tab, params: dict | None = None) -> dict:
    """The Models page's load answer for a link with `params` (None: no request), as the page's load event
    gets it (the handler is a coroutine)."""
    from types import SimpleNamespace

    import gradio as gr

    if tab.widgets is None:  # the answer is made in the form Gradio sends it to the page's components
        with gr.Blocks():
            tab.layout(gr.HTML())
    return run_async(tab.on_load(None if params is None else SimpleNamespace(query_params=params)))


def shown(answer: dict) -> list[str]:
    """The model ids of the rows a Models page answer shows, in order (its `results` table's rows, as
    `table.results_table` marks each with its model)."""
    import html
    import re

    return [html.unescape(m) for m in re.findall(r'<tr data-model="([^"]*)"', str(answer["results"]))]


LOG_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ")  # every log line starts with its UTC time


def log_message(line: str) -> str:
    """A log line without its UTC time (`runtime/logs.py`): `LEVEL logger: message`; "" for a line
    without one (a traceback's continuation, another program's output)."""
    found = LOG_TIME.match(line)
    return line[found.end() :] if found else ""


def contrast(colour: str, background: str) -> float:
    """WCAG's contrast ratio of two #rrggbb colours."""

    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(colour), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def read_files(files: Iterable[str], opener: Callable[[str], BinaryIO], *, source: str, kind: str) -> Snapshot:
    """The snapshot `dataset.load` builds from `files` opened with `opener` (a Hub that fails, a folder that refuses):
    the listing is the test's, the reading is the loader's own; one bad file never stops the rest."""
    listing = Listing(dict.fromkeys(files, ""), opener)
    with mock.patch.object(dataset, "list_source", lambda text: (listing, kind, source)):
        return dataset.load(source)
