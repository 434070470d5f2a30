"""Round two of what one caller can make the running app hold (issue 35), tried on `python app.py` over
raw sockets: a body slipped past the limit, uploads, MCP log floods, connections and streams that never end.

One app serves every test here, its log in a file and its temporary files in a folder of their own.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from pathlib import Path

import pytest

from components.runtime import settings
from tests.e2e.test_mcp import call_tools
from tests.hardening.test_bounds import App, send_unread, started

SECRET = "round-two-secret"
MB = 1024 * 1024
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def connections_app(tmp_path_factory):
    with started(tmp_path_factory, "round-two", SECRET) as app:
        yield app


def connect(app: App) -> socket.socket:
    return socket.create_connection(("127.0.0.1", app.server.port), timeout=70)


def test_a_20_mb_body_with_both_length_and_chunks_is_refused_and_rss_stays_flat(connections_app):
    before = connections_app.rss_mb()
    body = b'{"data": ["' + b"a" * (20 * MB) + b'", "", "", "", ""]}'
    chunked = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
    head = "Content-Length: 5\r\nTransfer-Encoding: chunked"
    answer = send_unread(connections_app.server.url, "/gradio_api/call/search", len(chunked), head=head, body=chunked)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"Content-Length and Transfer-Encoding" in answer
    assert connections_app.rss_mb() - before < 40


def test_uploads_are_refused_and_leave_no_file(connections_app):
    files = [("files", (f"f{i}.txt", b"x" * 1000, "text/plain")) for i in range(800)]
    for _ in range(10):
        answer = connections_app.http.post("/gradio_api/upload", files=files)
        assert answer.status_code == 403 and answer.json() == {"error": "this app takes no uploads"}
    assert len(connections_app.files()) <= 20


def test_40_malformed_mcp_requests_add_at_most_12_log_lines(connections_app):
    before = len(connections_app.logged_through())
    bodies = [b'{"jsonrpc":"2.0","id":1,"method":"x"}', b"\xff\xfe\xfd", b"[]", b'{"jsonrpc":"2.0","id":1}']
    for i in range(40):
        answer = connections_app.http.post("/gradio_api/mcp/", content=bodies[i % 4], headers=MCP_HEADERS)
        assert answer.status_code == 400 and answer.json()["error"].startswith("not an MCP message: the body is ")
    added = connections_app.logged_through()[before:]
    assert any("counted, not logged" in line for line in added), added
    assert len(added) <= 12, added
    assert not [line for line in added if "Traceback" in line or "validation error" in line]


def test_a_normal_tool_call_logs_at_most_one_line(connections_app):
    before = len(connections_app.logged_through())
    (lookup,) = call_tools(connections_app.server.url, [("lookup", {"model_id": "Qwen/Qwen3-0.6B"})])
    assert '"model_id": "Qwen/Qwen3-0.6B"' in lookup.content[0].text
    added = connections_app.logged_through()[before:]
    assert len(added) <= 1, added


# a hang guard three times the request deadline: a connection still open then was never going to be cut
GUARD = 3 * settings.REQUEST_DEADLINE.value


def closed_by_the_app(sock: socket.socket, drip: bool) -> bytes | None:
    """What the app sent on `sock` before closing it (sending a header line every 5 s when `drip`); None when
    it was still open after `GUARD` seconds."""
    began, heard = time.monotonic(), b""
    if drip:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sock.settimeout(5)
    while time.monotonic() - began < GUARD:
        try:
            part = sock.recv(4096)
            if part == b"":
                return heard
            heard += part
        except TimeoutError:
            pass
        except OSError:
            return heard
        if drip:
            try:
                sock.sendall(b"X-Drip: 1\r\n")
            except OSError:
                return heard
    return None


def test_idle_and_dripping_connections_are_closed_within_60_s(connections_app):
    heard: dict[str, bytes | None] = {}
    socks = {"idle": connect(connections_app), "dripping": connect(connections_app)}
    threads = [
        threading.Thread(target=lambda k=k: heard.__setitem__(k, closed_by_the_app(socks[k], k == "dripping")))
        for k in socks
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(GUARD + 20)
    for sock in socks.values():
        sock.close()
    # both cut by the app's request deadline, with nothing sent: neither request ever arrived whole
    assert heard == {"idle": b"", "dripping": b""}, heard
    assert settings.REQUEST_DEADLINE.value <= 60  # the test's name: the deadline itself is within a minute
    assert connections_app.http.get("/feed.atom").status_code == 200  # other clients served throughout


def open_stream(app: App, session: str) -> tuple[socket.socket, bytes]:
    sock = connect(app)
    sock.sendall(f"GET /gradio_api/heartbeat/{session} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    sock.settimeout(30)
    answer = b""
    while b"\r\n\r\n" not in answer or (b" 429 " in answer.split(b"\r\n")[0] and not answer.endswith(b"}")):
        part = sock.recv(4096)
        if not part:
            break
        answer += part
    return sock, answer


def test_one_client_holds_at_most_64_event_streams(connections_app):
    # the app's own MCP client (tool calls above) may hold one heartbeat stream from the same loopback address
    opened, refused = [], b""
    try:
        for i in range(settings.STREAMS_PER_CLIENT.value + 1):
            sock, first = open_stream(connections_app, f"s{i}")
            if not first.startswith(b"HTTP/1.1 200"):
                sock.close()
                refused = first
                break
            assert b"text/event-stream" in first, first[:200]
            opened.append(sock)
        assert refused.startswith(b"HTTP/1.1 429") and b"too many open event streams" in refused, refused[:200]
        assert settings.STREAMS_PER_CLIENT.value - 1 <= len(opened) <= settings.STREAMS_PER_CLIENT.value
    finally:
        for sock in opened:
            sock.close()
    deadline = time.monotonic() + 30
    while True:  # the closed streams are counted out as the app notices each close
        sock, first = open_stream(connections_app, "after")
        sock.close()
        if first.startswith(b"HTTP/1.1 200") or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert first.startswith(b"HTTP/1.1 200"), first[:200]


def test_the_app_still_serves_after_all_of_it(connections_app):
    kind, answer = connections_app.call("lookup", ["Qwen/Qwen3-0.6B", "", ""])
    assert kind == "complete" and answer[0]["model_id"] == "Qwen/Qwen3-0.6B"
    assert re.search(r"Traceback", connections_app.log.read_text(encoding="utf-8", errors="replace")) is None
    assert not Path(connections_app.temp / "gradio").exists() or len(connections_app.files()) <= 20
