"""Shared test helpers: small Parquet files made on the spot, and the environment kept offline."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.fixture
def sample_dir(tmp_path, monkeypatch):
    """A one-row bundled sample, with the Hub not switched off: what the store falls back to."""
    import components.store as store

    folder = tmp_path / "sample"
    write(folder / "s.parquet", [row("sample/model")])
    monkeypatch.setattr(store, "SAMPLE_DIR", folder)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(store.hf_constants, "HF_HUB_OFFLINE", False)
    return folder


@pytest.fixture
def make_row():
    return row


@pytest.fixture
def write_parquet():
    return write


NEW_CC, OLD_CC = "2.28.7631.0+82129205", "2.9.1.0+aaaaaaaa"


@pytest.fixture
def world(tmp_path):
    """A small dataset on three stacks and rankings for both tasks: (snapshot, rankings)."""
    from datetime import datetime, timezone

    from components.dataset import load
    from components.rankings import RankedModel, Rankings

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
    rankings = Rankings(lists=lists, fetched_at=datetime(2026, 11, 30, tzinfo=timezone.utc), origin="snapshot", source="test.json")
    return snapshot, rankings


# ---- a launched app, for the API and browser tests ------------------------------------------

from assets.make_screenshot import CHROMIUM, CHROMIUM_ARGS  # one launch recipe for tests and screenshots


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`python app.py` in a subprocess, as a person would start it."""

    def __init__(self, *args: str, env: dict | None = None):
        import subprocess
        import sys

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full_env = {**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False", **(env or {})}
        self.log = open(os.devnull, "w")
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "app.py"), *args, "--port", str(self.port)],
            cwd=ROOT, env=full_env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def wait(self, timeout: float = 90) -> "Server":
        import time
        import urllib.request

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"app.py exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as r:
                    if r.status == 200:
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


SAMPLE_ARGS = ("--dataset", str(ROOT / "data" / "sample"), "--rankings", str(ROOT / "data" / "rankings_snapshot.json"))


@pytest.fixture(scope="session")
def sample_app():
    """The app serving the bundled sample and rankings snapshot (as with no network)."""
    server = Server(*SAMPLE_ARGS).wait()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def client(sample_app):
    from gradio_client import Client

    return Client(sample_app.url, verbose=False)


@pytest.fixture(scope="session")
def browser_type_launch_args():
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
