"""A dataset file that turns unreadable keeps its stack (issue 61, finding 3).

A sync replaced the newest Transformers file with its first 20,000 bytes (written beside it, then moved into
place): the stack went from /api/v1/stacks within one look, its lookups said "No tested stack matches", and
/readyz and /metrics said nothing. Now the file's last good rows are served, /readyz stays ready and says how
many files are served so, /metrics counts a failed refresh, and a good file moved back in is read again.

The app's own HTTP routes (`server.routes`, no Gradio) on a local folder the store looks at every 50 ms, as
`DATA_CHECK_SECONDS` makes it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.applications import Starlette
from starlette.testclient import TestClient

from components.sources.app_sources import Sources
from components.sources.dataset_store import DatasetStore
from components.sources.rankings_store import resolve_rankings
from components.sources.records_store import RecordsStore
from components.web import metrics, server
from tests.helpers import ROOT, row, write

NEW_CC, OLD_CC = "2.28.7631.0+82129205", "2.21.18209.0+043b1bf7"
NEWEST = {"neuronx_cc": NEW_CC, "library": "transformers", "library_version": "5.0.0"}


def newest_rows(*extra: str) -> list[dict]:
    """The newest stack's rows, each with its own notes (so the file is well over 20,000 bytes)."""
    models = [*(f"org/model-{i:03d}" for i in range(400)), *extra]
    return [row(m, cc=NEW_CC, lib_version="5.0.0", notes=hashlib.sha512(m.encode()).hexdigest()) for m in models]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    write(data / "new.parquet", newest_rows())
    write(data / "old.parquet", [row(f"org/model-{i:03d}", cc=OLD_CC, lib_version="4.57.1") for i in range(400)])
    assert (data / "new.parquet").stat().st_size > 20_000  # so that its first 20,000 bytes are a truncated file
    return data


@pytest.fixture
def watched_folder(folder, monkeypatch):
    monkeypatch.setenv("DATA_CHECK_SECONDS", "0.05")
    sources = Sources(
        DatasetStore(str(folder)),
        resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json")),
        RecordsStore(ROOT / "data" / "models_snapshot.json", live=False),
    )
    sources.start()
    assert sources.datasets.check_seconds == 0.05
    watched = metrics.Metrics(sources)
    with TestClient(Starlette(routes=server.routes(sources, watched))) as client:
        yield client, sources
    sources.stop()


def move_into_place(content: bytes, path: Path) -> None:
    """As a sync tool does: written beside the file, then renamed over it."""
    staged = path.with_name(f".{path.name}.partial")
    staged.write_bytes(content)
    os.replace(staged, path)


def wait_for(condition, seconds: float = 10.0):
    deadline = time.monotonic() + seconds
    while not (found := condition()) and time.monotonic() < deadline:
        time.sleep(0.02)
    return found


def refresh_failures(client: TestClient) -> float:
    for family in text_string_to_metric_families(client.get("/metrics").text):
        for sample in family.samples:
            if sample.name == "app_refresh_failures_total" and sample.labels == {"source": "dataset"}:
                return sample.value
    raise AssertionError("no app_refresh_failures_total for the dataset")


def answers(client: TestClient, model: str) -> list:
    """The model's lookup on its own stack and on the newest stack named, and its badge."""
    found = [
        client.get("/api/v1/lookup", params={"model": model}),
        client.get("/api/v1/lookup", params={"model": model, "neuronx_cc": NEW_CC, "library_version": "5.0.0"}),
        client.get("/badge", params={"model": model}),
    ]
    assert all(a.status_code == 200 for a in found), [a.text for a in found]
    return [a.json() for a in found]


def test_a_file_that_turns_unreadable_keeps_its_stack_until_a_good_file_returns(watched_folder, folder, caplog):
    client, sources = watched_folder
    caplog.set_level(logging.WARNING, logger="components.sources.dataset")
    newest = folder / "new.parquet"
    good = newest.read_bytes()
    stacks = client.get("/api/v1/stacks").json()
    assert len(stacks) == 2 and {k: stacks[0][k] for k in NEWEST} == NEWEST
    before = answers(client, "org/model-007")
    assert before[0]["result"] == "PASS" and before[0]["neuronx_cc"] == NEW_CC
    assert client.get("/readyz").json() == {"ready": True, "dataset": "local"}
    failures = refresh_failures(client)

    move_into_place(good[:20_000], newest)
    ready = wait_for(lambda: (r := client.get("/readyz").json()).get("last_good_read") and r)
    assert ready == {"ready": True, "dataset": "local", "last_good_read": {"files": 1, "stacks": [NEWEST]}}
    assert client.get("/api/v1/stacks").json() == stacks  # the stack stays, its counts as they were
    assert answers(client, "org/model-007") == before
    assert refresh_failures(client) == failures + 1
    (line,) = [r.getMessage() for r in caplog.records if "last good rows are served" in r.getMessage()]
    assert "new.parquet" in line and "last good rows are served" in line and "Transformers 5.0.0" in line
    (note,) = sources.datasets.current().skipped  # the page's header lists it
    assert note.file == "new.parquet" and note.reason.endswith("its rows from the last good read are served")
    readyz = client.get("/readyz").text  # a public probe: no path, no file, no error text
    assert str(folder) not in readyz and "new.parquet" not in readyz and "Parquet" not in readyz

    # a refresh that finds nothing new counts nothing more
    assert sources.datasets.refresh()
    assert refresh_failures(client) == failures + 1 and client.get("/readyz").json() == ready

    staged = write(folder / ".new.parquet.partial", newest_rows("org/added-later"))
    os.replace(staged, newest)
    assert wait_for(lambda: "last_good_read" not in client.get("/readyz").json())
    assert client.get("/readyz").json() == {"ready": True, "dataset": "local"}
    assert answers(client, "org/added-later")[0]["neuronx_cc"] == NEW_CC  # read again, not the kept rows
    assert answers(client, "org/model-007") == before and not sources.datasets.current().skipped
    assert refresh_failures(client) == failures + 1


def test_a_new_file_that_never_read_well_is_skipped_as_before(watched_folder, folder):
    client, sources = watched_folder
    failures = refresh_failures(client)
    move_into_place(b"PAR1 not parquet at all PAR1", folder / "broken.parquet")
    assert wait_for(lambda: [s.file for s in sources.datasets.current().skipped] == ["broken.parquet"])
    assert client.get("/readyz").json() == {"ready": True, "dataset": "local"}
    assert len(client.get("/api/v1/stacks").json()) == 2 and refresh_failures(client) == failures
