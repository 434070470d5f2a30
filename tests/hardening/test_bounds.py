"""What one caller can make the running app hold, keep, write or log (issue 27), tried on `python app.py`.

One app serves every test of this module, with its log written to a file and its temporary files in a
folder of their own; the last test checks that it still serves after all of it.
"""

from __future__ import annotations

import contextlib
import json
import re
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from components.web.routes import webhook
from tests.helpers import SAMPLE_ARGS, Server, log_message

SECRET = "hardening-secret"
PAYLOAD = {"event": {"action": "update", "scope": "repo.content"}, "repo": {"type": "dataset", "name": "a/b"}}
MB = 1024 * 1024


class App:
    def __init__(self, server: Server, log: Path, temp: Path, secret: str = SECRET):
        self.server, self.log, self.temp, self.secret = server, log, temp, secret
        self.http = httpx.Client(base_url=server.url, timeout=60)
        self.markers = 0

    def logged_through(self) -> list[str]:
        """The log's lines once all that was logged before this call is in it: the positive sign is a
        webhook call naming a fresh marker, which logs one INFO line after whatever came before (asked
        again while a refresh is already queued, which logs nothing). Marker lines are left out."""
        self.markers += 1
        marker = f"log-marker-{self.markers}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            payload = {"event": {"scope": marker, "action": "update"}}
            assert self.http.post(webhook.PATH, json=payload, headers={webhook.HEADER: self.secret}).status_code == 202
            for _ in range(20):
                lines = self.log_lines()
                if any(marker in line for line in lines):
                    return [line for line in lines if "log-marker-" not in line]
                time.sleep(0.1)
        raise AssertionError(f"the marker {marker!r} never reached the log")

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.server.proc.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024

    def log_lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8", errors="replace").splitlines()

    def files(self) -> set[Path]:
        return {p for p in self.temp.rglob("*") if p.is_file()}

    def call(self, name: str, data: list) -> tuple[str, object]:
        """POST /gradio_api/call/NAME, then read its result: (the last event's kind, its data)."""
        posted = self.http.post(f"/gradio_api/call/{name}", json={"data": data})
        posted.raise_for_status()
        stream = self.http.get(f"/gradio_api/call/{name}/{posted.json()['event_id']}").text
        kind, data = re.findall(r"^event: (\w+)\ndata: (.*)$", stream, re.MULTILINE)[-1]
        return kind, json.loads(data)


@contextlib.contextmanager
def started(tmp_path_factory, name: str, secret: str = SECRET, **env: str) -> Iterator[App]:
    """The app on the bundled sample, with its own temporary folders and log (`env` adds variables)."""
    base = tmp_path_factory.mktemp(name)
    temp = base / "tmp"
    temp.mkdir()
    log = base / "app.log"
    # every webhook call asks for a refresh at once: `logged_through` counts on each logging its line
    env = {"WEBHOOK_SECRET": secret, "WEBHOOK_DEBOUNCE_SECONDS": "0", "TMPDIR": str(temp),
           "GRADIO_TEMP_DIR": str(temp / "gradio"), **env}  # fmt: skip
    server = Server(*SAMPLE_ARGS, env=env, log=log).wait()
    running = App(server, log, temp, secret)
    try:
        yield running
    finally:
        running.http.close()
        server.stop()


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    with started(tmp_path_factory, "bounds") as app:
        yield app


def send_unread(url: str, path: str, length: int, head: str | None = None, body: bytes | None = None) -> bytes:
    """Declare a `length`-byte body (or send the header lines `head`), send it (`body`, or `[`s) while the
    server does not answer, and return the answer."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        head = head or f"Content-Length: {length}"
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n{head}\r\n\r\n".encode()
        )
        sock.setblocking(False)
        chunk, sent = b"[" * 65536, 0
        deadline = time.monotonic() + 60
        while sent < length and time.monotonic() < deadline:
            readable, writable, _ = select.select([sock], [sock], [], 5)
            if readable:
                break
            if writable:
                try:
                    sent += sock.send(body[sent : sent + 65536] if body is not None else chunk[: length - sent])
                except BlockingIOError:
                    continue
                except OSError:
                    break
        sock.setblocking(True)
        answer = b""
        while not complete(answer):
            try:
                part = sock.recv(65536)
            except ConnectionResetError:  # closed with our unread body in its buffer: what came is the answer
                break
            if not part:
                break
            answer += part
        return answer


def complete(answer: bytes) -> bool:
    head, found, body = answer.partition(b"\r\n\r\n")
    length = re.search(rb"content-length: (\d+)", head, re.IGNORECASE)
    return bool(found and length and len(body) >= int(length.group(1)))


def test_a_64_mb_body_is_refused_unread_and_rss_does_not_grow_by_it(running):
    before = running.rss_mb()
    for path in ("/gradio_api/call/search", "/gradio_api/queue/join", "/gradio_api/mcp/", "/gradio_api/upload"):
        answer = send_unread(running.server.url, path, 64 * MB)
        assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:200])
        assert b"request body over 1 MB" in answer
    assert running.rss_mb() - before < 16, (before, running.rss_mb())


def test_a_64_mb_body_in_chunks_is_cut_off_at_the_limit(running):
    def chunks():
        for _ in range(64 * 16):
            yield b"[" * 65536

    before = running.rss_mb()
    answer = running.http.post(
        "/gradio_api/call/search", content=chunks(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413 and answer.json() == {"error": "request body over 1 MB"}
    assert running.rss_mb() - before < 16


def test_the_webhook_takes_at_most_64_kb_and_a_body_under_the_limits_is_served(running):
    big = json.dumps({**PAYLOAD, "padding": "x" * 70_000})
    answer = running.http.post(webhook.PATH, content=big, headers={webhook.HEADER: SECRET})
    assert answer.status_code == 413 and answer.json() == {"error": "request body over 64 KB"}
    kind, rows = running.call("search", ["q" * 500_000, "selected", "", "", ""])  # ~500 KB: under 1 MB
    assert (kind, rows) == ("complete", [[]])


def test_120_downloads_write_no_file(running):
    before = running.files()
    for i in range(120):
        fmt = ("csv", "parquet")[i % 2]
        answer = running.http.get(f"/export/{fmt}", params={"view": "selected", "q": f"qwen {i % 3}"[:4]})
        assert answer.status_code == 200 and len(answer.content) > 100
        assert answer.headers["content-disposition"].startswith('attachment; filename="torch-neuronx-support_')
    assert len(running.files() - before) <= 3, sorted(running.files() - before)


@pytest.mark.parametrize(
    ("name", "data", "argument", "kind"),
    [
        ("compare", [1, 2, 3, 4], "neuronx_cc_a", "a number"),
        ("compare", ["", "", ["2.28"], ""], "neuronx_cc_b", "a list"),
        ("search", [{"q": "qwen"}, "selected", "", "", ""], "query", "an object"),
        ("search", ["qwen", "selected", "", "", None], "library_version", "null"),
        ("lookup", [42, "", ""], "model_id", "a number"),
        ("lookup", ["Qwen/Qwen3-0.6B", True, ""], "neuronx_cc", "a boolean"),
        ("architectures", ["", "", 7.5], "task", "a number"),
    ],
)
def test_a_wrong_argument_type_is_an_error_naming_the_argument(running, name, data, argument, kind):
    got_kind, error = running.call(name, data)
    assert got_kind == "error"
    default = "" if argument == "model_id" else ' ("" for the default)'
    assert error["error"] == f"{name}: the argument {argument} must be a string{default}, not {kind}"


def test_wrong_argument_types_leave_no_traceback_in_the_log(running):
    assert running.call("compare", [1, 2, 3, 4])[0] == "error"
    text = "\n".join(running.logged_through())
    assert "Traceback" not in text and "AttributeError" not in text


def test_too_few_values_is_an_error_naming_the_missing_arguments_without_a_traceback(running):
    kind, error = running.call("search", ["qwen\nWARNING forged.logger: FORGED BY COUNT", "selected"])
    assert kind == "error"
    assert error["error"] == "search: 5 arguments wanted, 2 given; missing: task, neuronx_cc, library_version"
    text = "\n".join(running.logged_through())
    assert "Traceback" not in text and "FORGED BY COUNT" not in text


def test_a_route_that_raises_logs_one_line(running):
    before = len(running.logged_through())
    # an unknown name over plain HTTP is the app's own 404, not logged (tests/hardening/test_plain_calls.py)
    assert running.http.post("/gradio_api/call/no-such-endpoint", json={"data": []}).status_code == 404
    join = {"data": [], "fn_index": 9999, "session_hash": "abc"}
    answer = running.http.post("/gradio_api/queue/join", json=join)
    assert answer.status_code == 500 and answer.json() == {"error": "internal error"}
    added = running.logged_through()[before:]
    assert len(added) == 1 and all(
        log_message(line).startswith("ERROR components.web.middleware.server_errors: POST ") for line in added
    ), added


def test_reads_of_unknown_results_are_answered_without_a_traceback(running):
    for i in range(50):
        answer = running.http.get(f"/gradio_api/call/search/no-such-event-{i}")
        assert answer.status_code == 200 and answer.text.startswith("event: error\n")
        assert running.http.get("/gradio_api/queue/data", params={"session_hash": f"none-{i}"}).status_code == 200
    assert "Traceback" not in "\n".join(running.logged_through())


def test_a_webhook_body_30000_levels_deep_is_a_400(running):
    for body in (b"[" * 30_000 + b"]" * 30_000, b'{"event":' * 6_000 + b"{}" + b"}" * 6_000):
        answer = running.http.post(webhook.PATH, content=body, headers={webhook.HEADER: SECRET})
        assert answer.status_code == 400, answer.text
    assert running.http.post(webhook.PATH, json=[1, 2], headers={webhook.HEADER: SECRET}).status_code == 400
    assert "Traceback" not in running.log.read_text(encoding="utf-8", errors="replace")


def test_a_forged_newline_in_a_payload_stays_inside_one_log_line(running):
    forged = "repo\nWARNING forged.logger: FORGED LINE\r\nERROR forged.logger: SECOND"
    payload = {"event": {"scope": forged, "action": "update\nINFO forged.logger: THIRD"}}
    # a local dataset: the refresh is requested, and logged, unless one is queued already (then nothing is
    # logged: asked again until the call lands while none is queued)
    for _ in range(10):
        answer = running.http.post(webhook.PATH, json=payload, headers={webhook.HEADER: SECRET})
        assert answer.status_code == 202
        lines = running.logged_through()
        if any("FORGED LINE" in line for line in lines):
            break
    assert not [
        line
        for line in lines
        if "forged.logger" in line and not log_message(line).startswith("INFO components.web.routes.webhook")
    ]
    found = [line for line in lines if "FORGED LINE" in line]
    assert found and all("SECOND" in line and "THIRD" in line for line in found), found


def test_200_wrong_secrets_add_at_most_10_log_lines(running):
    before = len(running.logged_through())
    for i in range(200):
        headers = {webhook.HEADER: f"guess-{i}"} if i % 5 else {}
        assert running.http.post(webhook.PATH, json=PAYLOAD, headers=headers).status_code in (401, 403)
    added = running.logged_through()[before:]
    assert len(added) <= 10, added


def test_named_endpoints_do_not_answer_outside_the_queue(running):
    for path in (
        "/gradio_api/run/search",
        "/gradio_api/api/search",
        "/gradio_api/run/lookup",
        "/gradio_api/run/stacks",
    ):
        answer = running.http.post(path, json={"data": ["qwen", "selected", "", "", ""]})
        assert answer.status_code == 404 and "queue" in answer.text, (path, answer.text[:200])
    assert running.call("search", ["qwen3 0.6b", "selected", "", "", ""])[0] == "complete"  # the queue answers


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/gradio_api/runs"),
        ("GET", "/gradio_api/runs/"),
        ("POST", "/gradio_api/run-history/connect"),
        ("GET", "/gradio_api/run-history/buckets"),
        ("GET", "/gradio_api/run-history/records"),
        ("GET", "/gradio_api/run-history/records/search/abc/assets/def"),
    ],
)
def test_the_run_history_routes_are_gone(running, method, path):
    answer = running.http.request(method, path, json={"bucket_id": "someone/bucket"} if method == "POST" else None)
    assert answer.status_code == 404, (path, answer.status_code, answer.text[:200])


def test_the_page_offers_no_run_history(running):
    config = running.http.get("/config").json()
    assert config["run_history"] is False and "runs" not in config.get("footer_links", [])


def test_the_app_still_serves_after_all_of_it(running):
    assert running.server.proc.poll() is None
    assert running.http.get("/").status_code == 200
    kind, rows = running.call("search", ["qwen3 0.6b", "selected", "", "", ""])
    assert kind == "complete" and rows[0][0]["model_id"] == "Qwen/Qwen3-0.6B"
    assert running.http.get("/export/csv", params={"q": "qwen"}).status_code == 200
    assert running.http.post(webhook.PATH, json=PAYLOAD, headers={webhook.HEADER: SECRET}).status_code == 202


def test_nothing_is_left_behind_when_the_app_stops(running):
    running.server.stop()
    assert running.files() == set(), sorted(running.files())
