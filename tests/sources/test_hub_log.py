"""One log line per Hub failure, with its real cause: huggingface_hub's retries are neither doubled nor listed."""

from __future__ import annotations

import logging

import pytest
from huggingface_hub.utils import http_backoff

from components.sources import dataset_store, hub_log, refresh
from tests.helpers import free_port


class RefusedHub(refresh.RefreshingStore[int]):
    """A source whose read is huggingface_hub's own retrying GET, against a port nobody listens on."""

    source_name = "refused"

    def __init__(self, url: str, **kwargs):
        super().__init__(**kwargs)
        self.url = url
        self._swap(0)

    def reader_label(self) -> str:
        return "the Hub"

    def read(self) -> int:
        http_backoff("GET", self.url, max_retries=5, base_wait_time=5)
        return 1


@pytest.fixture
def quiet_logs(monkeypatch):
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    hub_log.quiet()


def test_a_hub_failure_is_one_line_naming_the_real_cause_not_a_timeout(quiet_logs, caplog):
    caplog.set_level(logging.DEBUG)
    source = RefusedHub(f"http://127.0.0.1:{free_port()}/api/models", read_timeout=1.5)
    assert source.refresh() is False
    assert source.last_error.startswith("the Hub did not answer within 1.5 s (still retrying after ConnectError: ")
    assert [r for r in caplog.records if r.name.startswith("huggingface_hub")] == []
    failures = [r.getMessage() for r in caplog.records if "refresh failed" in r.getMessage()]
    assert failures == [f"refused refresh failed: {source.last_error}; next attempt in 15 s"]


def test_huggingface_hub_lines_come_out_once_in_the_apps_format(quiet_logs):
    library = logging.getLogger("huggingface_hub")
    assert library.handlers == [] and library.propagate
    hub_log.quiet()  # twice changes nothing
    assert logging.getLogger(hub_log.HTTP_LOGGER).filters.count(hub_log._FILTER) == 1


def test_other_huggingface_hub_warnings_still_reach_the_log(quiet_logs, caplog):
    caplog.set_level(logging.WARNING)
    logging.getLogger(hub_log.HTTP_LOGGER).warning("Error closing client: boom")
    assert [r.getMessage() for r in caplog.records] == ["Error closing client: boom"]
