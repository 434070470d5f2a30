"""Launch day (issue 39) on a running app: a full queue still gives a new tab its painted answer and then the
live page; more tabs than the old connection cap (512) are all held; one address's flood stays bounded."""

from __future__ import annotations

import re
import socket
import threading
import uuid

import httpx
import pytest
from playwright.sync_api import Browser, expect

from components.runtime import settings
from components.web.html import busy
from tests.helpers import ROOT, SAMPLE_ARGS, Server

MODEL = "Qwen/Qwen3-8B"
UNTESTED = "ByteDance-Seed/UI-TARS-1.5-7B"  # its page keeps the load event that counts the visit
OLD_CAP = 512
TABS = 600  # more than the old cap, each from its own address as a Space's proxy reports it
SPACE = {"SYSTEM": "spaces", "SPACE_ID": "test/torch-neuronx-support", "SPACE_HOST": "test-space.hf.space"}


@pytest.fixture(scope="module")
def busy_app(tmp_path_factory):
    gate = tmp_path_factory.mktemp("busy") / "open"
    server = Server(*SAMPLE_ARGS, env={"BUSY_GATE": str(gate)}, script=ROOT / "tests" / "e2e" / "busy_app.py").wait()
    yield server, gate
    gate.touch()
    server.stop()


def fill_queue(url: str) -> list[int]:
    """Searches until the queue refuses one; the status of each POST. Each joins Gradio's queue as a page's event
    does (`queue/join`; a plain call is answered beside the queue: `web/gradio/direct_calls.py`)."""
    statuses = []
    with httpx.Client(base_url=url, timeout=10) as http:
        index = next(d["id"] for d in http.get("/config").json()["dependencies"] if d.get("api_name") == "search")
        while not statuses or statuses[-1] == 200 and len(statuses) < 10:
            body = {"data": ["llama", "selected", "", "", ""], "fn_index": index, "session_hash": uuid.uuid4().hex}
            statuses.append(http.post("/gradio_api/queue/join", json=body).status_code)
    return statuses


def test_a_full_queue_still_paints_the_answer_and_the_live_page_then_arrives(browser: Browser, busy_app):
    """A link whose page keeps its load event (an untested model's: it counts the visit) gets its painted answer
    and the busy note, and its live page once the queue lets it in. A tested model's link carries its live answer
    in the page: it goes live at once, queue or not, with no note."""
    server, gate = busy_app
    statuses = fill_queue(server.url)
    assert statuses[-1] == 503, statuses  # the queue is full: Gradio refuses the next event
    first = httpx.get(f"{server.url}/?model={UNTESTED}", timeout=10)
    assert first.status_code == 200 and "Traceback" not in first.text
    painted = first.text.split('<div id="first-paint">', 1)[1]
    assert UNTESTED in painted and "not tested" in painted  # the model's answer, in the first HTML
    assert str(busy.SHOWN) in painted  # and the note that the live page is busy
    live = httpx.get(f"{server.url}/?model={MODEL}", timeout=10).text.split('<div id="first-paint">', 1)[1]
    assert MODEL in live and "PASS" in live and str(busy.SHOWN) not in live  # it needs no queue: no note
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/?model={MODEL}")
        expect(page.locator("#details-summary")).to_contain_text(MODEL, timeout=60_000)  # while the queue is full
        expect(page.locator("#first-paint")).to_have_count(0)
        page.goto(f"{server.url}/?model={UNTESTED}")
        expect(page.locator("#first-paint h2 a")).to_have_text(UNTESTED)  # the heading links the model, then its result
        expect(page.locator("#first-paint .fp-busy-note")).to_be_visible()
        gate.touch()  # the held searches finish and the queue empties: the tab's retry is let in
        expect(page.locator("#details-summary")).to_contain_text(UNTESTED, timeout=90_000)
        expect(page.locator("#first-paint")).to_have_count(0)
    finally:
        gate.touch()
        context.close()


def test_a_tab_open_before_the_queue_filled_keeps_its_page_and_works_again_once_it_drains(browser: Browser, busy_app):
    server, gate = busy_app
    gate.unlink(missing_ok=True)  # searches are held again
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        rows = page.locator("#results [role=gridcell]")
        expect(rows.first).to_be_visible(timeout=60_000)
        expect(page.locator("#first-paint")).to_have_count(0)  # the live page
        statuses = fill_queue(server.url)
        assert statuses[-1] == 503, statuses  # full: the crowd's next event is refused
        # the open tab keeps its page (no blank page, no error page) and the app still answers it
        expect(rows.first).to_be_visible()
        assert page.request.get(f"{server.url}/api/v1/lookup?model={MODEL}").status == 200
        assert page.request.get(f"{server.url}/?model={MODEL}").status == 200
        gate.touch()  # the crowd's searches finish and the queue drains
        page.locator("#results [role=gridcell]").first.click(position={"x": 4, "y": 4})
        install = page.locator("#install pre")
        expect(install).to_have_text(re.compile(r"pip install"), timeout=60_000)  # the same tab, not reloaded
    finally:
        gate.touch()
        context.close()


@pytest.fixture(scope="module")
def crowded_space_app():
    server = Server(*SAMPLE_ARGS, env=SPACE).wait()
    yield server
    server.stop()


def open_heartbeat(url: str, address: str, session: str) -> tuple[socket.socket, bytes]:
    """A tab's heartbeat through a Space's proxy (which names the visitor in `X-Forwarded-For`); the socket
    and the answer's head."""
    port = int(url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(
        f"GET /gradio_api/heartbeat/{session} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: {address}\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        part = sock.recv(4096)
        if not part:
            break
        head += part
    return sock, head


def test_more_tabs_than_the_old_cap_are_all_held_and_one_address_stays_bounded(crowded_space_app):
    heads: list[bytes] = [b""] * TABS
    socks: list[socket.socket] = []
    lock = threading.Lock()

    def tab(i: int) -> None:
        sock, head = open_heartbeat(crowded_space_app.url, f"198.18.{i // 250}.{i % 250 + 1}", f"tab{i}")
        heads[i] = head
        with lock:
            socks.append(sock)

    threads = [threading.Thread(target=tab, args=(i,)) for i in range(TABS)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        refused = [h.split(b"\r\n")[0] for h in heads if not h.startswith(b"HTTP/1.1 200")]
        assert TABS > OLD_CAP and not refused, refused[:5]
        # while they are held, a flood of heartbeats from one address gets its share and no more
        flood, answers = [], []
        for i in range(settings.STREAMS_PER_CLIENT.value + 10):
            sock, head = open_heartbeat(crowded_space_app.url, "198.19.0.1", f"flood{i}")
            flood.append(sock)
            answers.append(head.split(b"\r\n")[0])
        socks.extend(flood)
        assert answers.count(b"HTTP/1.1 200 OK") == settings.STREAMS_PER_CLIENT.value, set(answers)
        assert answers[-1].startswith(b"HTTP/1.1 429")
        assert (
            httpx.get(f"{crowded_space_app.url}/?model={MODEL}", timeout=30).status_code == 200
        )  # others still served
    finally:
        for sock in socks:
            sock.close()


def test_a_tab_open_before_a_crowd_of_newer_visitors_still_changes_stack(browser: Browser, crowded_space_app):
    """Gradio keeps `SESSIONS` sessions; a crowd of newer visitors pushes an open tab's out.
    Its next pick came with a new session that was never sent the pickers' choices: Gradio answered "Error"
    over every picker and the table, for good (the page's events now read the pickers as text)."""

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{crowded_space_app.url}/?library=transformers")  # a stack named: its versions are on offer
        expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=60_000)
        expect(page.locator("#first-paint")).to_have_count(0)  # the live page
        crowd = settings.SESSIONS.value + 200
        with httpx.Client(base_url=crowded_space_app.url, timeout=30) as http:  # each one a new visitor's load event
            joined = [
                http.post(
                    "/gradio_api/queue/join",
                    json={"data": [], "fn_index": 0, "trigger_id": 0, "session_hash": f"crowd{i}"},
                    headers={"X-Forwarded-For": f"198.18.{i // 250}.{i % 250 + 1}"},
                ).status_code
                for i in range(crowd)
            ]
        assert joined.count(200) == crowd
        page.locator("#stack-tf input").click()
        versions = page.locator("#stack-tf [role=option]")
        expect(versions.first).to_be_visible(timeout=20_000)
        picked = versions.last.inner_text().strip()
        versions.last.click()
        expect(page.locator("#summary")).to_contain_text(f"Transformers {picked}", timeout=30_000)
        expect(page.locator("[data-testid=status-tracker]", has_text="Error")).to_have_count(0)
    finally:
        context.close()
