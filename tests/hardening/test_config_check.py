"""The config check on the running app: every hostile config.json shape, as large as each entry point takes
(`POST /api/v1/check_config`, the named `/check_config`, the MCP tool), gets a clear error or an answer,
and another caller is answered meanwhile. The old check held the whole app for minutes: the clients' timeout
(`GUARD`) catches that as a hang, not as a speed figure; what each shape costs is `benchmarks/cost.py`'s and
`benchmarks/worst_inputs.py`'s to print."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from components.runtime import settings
from tests.hardening.hostile import SHAPES, hostile_config

GUARD = 60  # seconds, the clients' timeout: a hang guard (each call takes tens of ms), never a speed goal


def filling(limit: int, body: Callable[[str], bytes], shape: str) -> str:
    """The largest text of `shape` (within 1%) whose request body stays under `limit` bytes."""
    size = limit
    for _ in range(6):
        text = hostile_config(shape, size)
        length = len(body(text))
        if limit * 0.99 <= length <= limit - 64:
            return text
        size = int(size * (limit - 256) / length)
    return text


def plain(text: str) -> bytes:
    return text.encode()


def named(text: str) -> bytes:
    return json.dumps({"data": [text, "", ""]}).encode()


def mcp(text: str) -> bytes:
    arguments = {"config_json": text, "neuronx_cc": "", "library_version": ""}
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "check_config", "arguments": arguments},
    }
    return json.dumps(message).encode()


def ask_plain(client: httpx.Client, body: bytes) -> str:
    answer = client.post("/api/v1/check_config", content=body)
    return answer.text


def ask_named(client: httpx.Client, body: bytes) -> str:
    posted = client.post("/gradio_api/call/check_config", content=body, headers={"content-type": "application/json"})
    assert posted.status_code == 200, posted.text[:300]
    return client.get(f"/gradio_api/call/check_config/{posted.json()['event_id']}").text


def ask_mcp(client: httpx.Client, body: bytes) -> str:
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    return client.post("/gradio_api/mcp/", content=body, headers=headers).text


ENTRIES = {
    "/api/v1/check_config": (settings.API_V1_BODY.value, plain, ask_plain),
    "/check_config": (settings.REQUEST_BODY.value, named, ask_named),
    "mcp check_config": (settings.REQUEST_BODY.value, mcp, ask_mcp),
}
# what each shape is answered: its error, or (many keys, no sizes) an answer naming no architecture
SAID = {
    "escaped quotes": "Unterminated string",
    "backslashes": "Unterminated string",
    "deep brackets": "nests deeper than 20 levels",
    "long number": "a number of more than 4,300 digits",
    "many keys": "the config names no architecture",
}


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("shape", SHAPES)
def test_a_hostile_config_at_the_body_limit_is_answered_while_others_are(sample_app, entry, shape):
    limit, body, ask = ENTRIES[entry]
    sent = body(filling(limit, body, shape))
    assert limit * 0.99 <= len(sent) <= limit
    with httpx.Client(base_url=sample_app.url, timeout=GUARD) as client, ThreadPoolExecutor(2) as pool:
        hostile = pool.submit(ask, client, sent)
        other = pool.submit(lambda: client.get("/api/v1/lookup", params={"model": "Qwen/Qwen3-0.6B"}).text)
        answer, other_answer = hostile.result(), other.result()  # a held app: httpx.ReadTimeout after GUARD
    assert SAID[shape] in answer.replace('\\"', '"'), answer[:300]
    assert json.loads(other_answer)["model_id"] == "Qwen/Qwen3-0.6B"
