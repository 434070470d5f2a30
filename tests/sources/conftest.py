"""Fixtures the tests of the sources share."""

from __future__ import annotations

import pytest


@pytest.fixture
def online(monkeypatch):
    """huggingface_hub's offline switch off for this test (the suite runs with HF_HUB_OFFLINE=1)."""
    from components.sources import dataset_store

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(dataset_store.hf_constants, "is_offline_mode", lambda: False)
