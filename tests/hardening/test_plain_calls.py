"""Plain calls (`POST /gradio_api/call/NAME`) on `python app.py`: each runs once, beside Gradio's queue, and holds
nothing but its answer, within the one unread budget (`web/gradio/direct_calls.py`, issue 61). The same tests run
with Gradio reporting a release no patch was written for (test_bounds_on_another_gradio.py)."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from components.queries import views
from components.runtime import settings
from tests.hardening.test_bounds import started

CALLS, AT_ONCE = 300, 32
GROWTH_MB = 150  # what 300 refused ~1 MB calls left unread may add (issue 61)
# a config.json of ~990 KB that is no JSON object: check_config refuses it in words
REFUSED = '["' + "x" * 990_000 + '"]'


@pytest.fixture(scope="module")
def calls_app(tmp_path_factory):
    with started(tmp_path_factory, "plain-calls") as app:
        yield app


def test_refused_one_megabyte_calls_left_unread_hold_almost_nothing(calls_app):
    body = json.dumps({"data": [REFUSED, "", ""]}).encode()
    assert len(body) < settings.REQUEST_BODY.value
    headers = {"content-type": "application/json"}
    before = calls_app.rss_mb()

    def post(_: int) -> str:
        with httpx.Client(base_url=calls_app.server.url, timeout=60) as http:
            posted = http.post("/gradio_api/call/check_config", content=body, headers=headers)
            assert posted.status_code == 200, posted.text
            return posted.json()["event_id"]

    with ThreadPoolExecutor(AT_ONCE) as pool:
        ids = list(pool.map(post, range(CALLS)))
    last = time.monotonic()
    # read one: the refusal in words, Gradio's error event (the rest stay unread)
    stream = calls_app.http.get(f"/gradio_api/call/check_config/{ids[-1]}").text
    assert stream.startswith("event: error\n") and "config_json" in stream, stream[:300]
    added = calls_app.rss_mb() - before
    while added > GROWTH_MB and time.monotonic() < last + 2:  # the moment: by 2 s after the last call
        time.sleep(0.1)
        added = calls_app.rss_mb() - before
    print(f"RSS {before:.0f} MB before; {added:+.0f} MB {time.monotonic() - last:.1f} s after {CALLS} refused calls")
    assert added <= GROWTH_MB, f"{CALLS} refused ~1 MB calls left unread added {added:.0f} MB"


def test_a_call_of_an_unknown_name_is_a_short_404_and_logs_no_long_line(calls_app):
    name = "z" * 60_000
    before = len(calls_app.logged_through())
    answer = calls_app.http.post(f"/gradio_api/call/{name}", json={"data": []})
    assert answer.status_code == 404
    error = answer.json()["error"]
    assert error.startswith("no endpoint named 'zzz") and "/search" in error and len(error) < 400, error[:500]
    private = calls_app.http.post("/gradio_api/call/on_load", json={"data": []})  # a page's own event: not over /call
    assert private.status_code == 404 and "/lookup" in private.json()["error"]
    added = calls_app.logged_through()[before:]
    assert all(len(line) <= settings.LOG_MESSAGE.value + 200 and "z" * 300 not in line for line in added), [
        line[:300] for line in added
    ]


def test_no_log_line_carries_more_than_a_slice_of_what_a_client_wrote(calls_app):
    join = {"data": [], "fn_index": 9999, "session_hash": "s" * 60_000}  # raises inside Gradio: one line
    before = len(calls_app.logged_through())
    answer = calls_app.http.post("/gradio_api/queue/join?" + "q" * 6000, json=join)
    assert answer.status_code in (400, 422, 500)
    added = calls_app.logged_through()[before:]
    assert all(len(line) <= settings.LOG_MESSAGE.value + 200 for line in added), [len(line) for line in added]
    assert not any("s" * 300 in line or "q" * 300 in line for line in added), [line[:300] for line in added]


@pytest.mark.parametrize("form", ["data", "v2"])
def test_a_plain_call_with_a_session_hash_or_by_name_answers_gradios_error_event(calls_app, form):
    body = (
        {"data": ["qwen3", "no such view", "", "", ""], "session_hash": "my-session"}
        if form == "data"
        else {"query": "qwen3", "view": "no such view"}
    )
    path = "/gradio_api/call/v2/search" if form == "v2" else "/gradio_api/call/search"
    event_id = calls_app.http.post(path, json=body).json()["event_id"]
    stream = calls_app.http.get(f"/gradio_api/call/search/{event_id}").text
    error = {"error": f"parameter 'view' is 'no such view'; use one of {', '.join(views.VIEWS)}"}
    assert (
        stream == f"event: error\ndata: {json.dumps(error | {'duration': 10, 'visible': True, 'title': 'Error'})}\n\n"
    )
