"""Three replicas behind real nginx, as `bash deploy/local.sh PORT 3` runs them (loopback only, bounded):
visitors spread and stick, none fails, not even when the replica that served the last visit is killed; new
data reaches every replica though the webhook reached one; one link has one ETag everywhere; the cache
in front keeps a crowd on one link away from the replicas; no forwarding header a client writes reaches a later
visitor through it; and `/metrics` is not on nginx's public listener.

One set of replicas serves the whole module; the test that kills one runs last but for the one that stops
them all."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import expect
from prometheus_client.parser import text_string_to_metric_families

from components.web import replicas as replicas_
from tests.hardening.test_poisoned_page import ELSEWHERE, EVIL
from tests.helpers import ROOT, free_port, row, write

SECRET = "e2e-webhook-secret"
LINK = "/?model=Qwen/Qwen3-0.6B"
NEW_MODEL = "e2e-org/brand-new-1B"
START_TIMEOUT = 240  # three apps starting side by side on two busy cores


def find_nginx() -> str | None:
    for path in (os.environ.get("NGINX"), shutil.which("nginx"), "/usr/sbin/nginx"):
        if path and os.access(path, os.X_OK):
            return path
    return None


@dataclass
class Deployment:
    """`deploy/local.sh` running: nginx's URL, and each replica's pid and port by its number."""

    process: subprocess.Popen
    url: str
    replicas: dict[int, tuple[int, int]] = field(default_factory=dict)
    output: list[str] = field(default_factory=list)

    def replica_url(self, number: int) -> str:
        return f"http://127.0.0.1:{self.replicas[number][1]}"


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    nginx = find_nginx()
    if nginx is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs nginx for the deployment tests (tests/nginx.sh installs it)")
        pytest.skip("needs nginx (sudo apt-get install -y nginx; tests/run.sh installs it)")
    data = tmp_path_factory.mktemp("dataset")
    for parquet in (ROOT / "data" / "sample").glob("*.parquet"):
        shutil.copy(parquet, data / parquet.name)
    port = free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False", "NGINX": nginx,
           "PYTHON": sys.executable, "DATA_CHECK_SECONDS": "1", "WEBHOOK_SECRET": SECRET, "METRICS": "1"}  # fmt: skip
    env.pop("REPLICA", None)
    process = subprocess.Popen(
        ["bash", str(ROOT / "deploy" / "local.sh"), str(port), "3", "--dataset", str(data),
         "--rankings", str(ROOT / "data" / "rankings_snapshot.json"),
         "--models", str(ROOT / "data" / "models_snapshot.json")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    running = Deployment(process, f"http://127.0.0.1:{port}")
    ready = threading.Event()

    def read() -> None:  # the script's lines, and the apps' log after them
        assert process.stdout is not None
        for line in process.stdout:
            running.output.append(line.rstrip())
            if found := re.fullmatch(r"replica (\d+) pid (\d+) port (\d+)", line.strip()):
                running.replicas[int(found[1])] = (int(found[2]), int(found[3]))
            if line.startswith("nginx pid ") and line.strip().endswith(f"port {port}"):
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        started = ready.wait(START_TIMEOUT)
        assert started, "\n".join(running.output[-40:])
        running.data = data  # type: ignore[attr-defined]
        yield running
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)  # only when the last test did not stop it


def visit(url: str, cookie: str, path: str = LINK) -> list[httpx.Response]:
    """A new visitor: the link's first HTML, then what its tab asks the replica that holds its session."""
    with httpx.Client(base_url=url, cookies={replicas_.COOKIE: cookie}, timeout=30) as http:
        return [http.get(path), http.get("/gradio_api/info"), http.get("/gradio_api/app_id")]


def failed(answers: list[httpx.Response]) -> bool:
    return any(a.status_code not in (200, 304) for a in answers)


def requests_to(deployment: Deployment, route: str) -> float:
    """How many requests for `route` the replicas answered, summed over their /metrics."""
    total = 0.0
    for number in deployment.replicas:
        text = httpx.get(deployment.replica_url(number) + "/metrics", timeout=10).text
        for family in text_string_to_metric_families(text):
            total += sum(
                s.value for s in family.samples if s.name == "http_requests_total" and s.labels["route"] == route
            )
    return total


def test_the_script_names_each_replica_and_its_port(deployment):
    assert sorted(deployment.replicas) == [1, 2, 3]
    for number, (pid, port) in deployment.replicas.items():
        answer = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=10)
        assert answer.status_code == 200 and answer.headers["x-replica"] == f"replica-{number}"
        assert Path(f"/proc/{pid}").exists()


# What a client may write to make a replica build its links for another origin: the edge owns these headers.
POISON = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": EVIL, "Forwarded": f"proto=https;host={EVIL}",
          "X-Forwarded-Port": "8443", "X-Forwarded-Prefix": "/evil", "X-Real-IP": "203.0.113.66"}  # fmt: skip
BROWSER_ENCODINGS = {"Accept-Encoding": "gzip, br"}


def assert_own_links(text: str, own: str) -> None:
    """Every absolute address in `text` naming this machine is `own` (http, nginx's port); nothing names
    the attacker's host or an https address of the app."""
    host = urlsplit(own).hostname
    mine = set(re.findall(rf"(https?://{re.escape(str(host))}[^\"'\s<>)\\/]*)", text))
    assert mine == {own} and own + "/" in text, mine  # og:url, the root, a feed's links
    assert EVIL not in text and "/evil" not in text
    hosts = {urlsplit(url).netloc for url in re.findall(r"https?://[^\"'\s<>)\\]+", text)}
    assert hosts <= {urlsplit(own).netloc, "www.w3.org"} | ELSEWHERE, hosts  # the w3.org: Atom's namespace


@pytest.mark.parametrize("path", ["/", "/?q=qwen", "/feed.atom"])
def test_a_forwarding_header_a_client_writes_reaches_no_later_visitor(deployment, path):
    """The attack of issue 61: while the link is not kept, one request with `X-Forwarded-Proto: https` (and the
    rest) and a browser's encodings; then a plain visitor through the same cache. Both get pages whose every
    address is nginx's own http origin: nginx writes `X-Forwarded-Proto` itself and drops the others, and the
    answer's `Vary` names the scheme's header, so no cache hands one visitor's variant to another."""
    with httpx.Client(base_url=deployment.url, timeout=30) as client:
        poisoned = client.get(path, headers={**POISON, **BROWSER_ENCODINGS})
        plain = client.get(path, headers=BROWSER_ENCODINGS)
    assert poisoned.status_code == plain.status_code == 200
    assert poisoned.headers["x-cache"] == "MISS"  # the test's link was not kept before the attack
    for answer in (plain, poisoned):
        assert_own_links(answer.text, deployment.url)
    assert "x-forwarded-proto" in {v.strip().lower() for v in plain.headers["vary"].split(",")}


def test_metrics_is_not_on_the_public_listener_and_the_probes_are(deployment):
    for path in ("/metrics", "/metrics/", "//metrics", "/%6detrics", "/metrics?format=text"):
        answer = httpx.get(deployment.url + path, timeout=30)
        assert answer.status_code in (403, 404) and "http_requests_total" not in answer.text, path
    for path in ("/healthz", "/readyz"):
        assert httpx.get(deployment.url + path, timeout=30).status_code == 200, path
    # Prometheus scrapes each replica's own port
    assert "http_requests_total" in httpx.get(deployment.replica_url(1) + "/metrics", timeout=30).text


def test_visitors_spread_over_every_replica_each_stays_on_one_and_none_fails(deployment):
    cookies = [secrets.token_hex(12) for _ in range(30)]
    with ThreadPoolExecutor(6) as pool:
        visits = list(pool.map(lambda c: visit(deployment.url, c), cookies))
    assert not [v for v in visits if failed(v)]
    served = [{a.headers["x-replica"] for a in v[1:]} for v in visits]  # the tab's own calls, never cached
    assert all(len(one) == 1 for one in served)  # a visitor stays on one replica
    assert set.union(*served) == {"replica-1", "replica-2", "replica-3"}  # visitors spread over all
    again = visit(deployment.url, cookies[0])
    assert {a.headers["x-replica"] for a in again[1:]} == served[0]  # and comes back to it


def test_one_link_has_one_etag_on_every_replica(deployment):
    host = deployment.url.removeprefix("http://")
    for path in (LINK, "/api/v1/lookup?model=Qwen/Qwen3-0.6B", "/compare"):
        for encoding in ("gzip", "identity"):
            tags = {
                httpx.get(deployment.replica_url(n) + path, timeout=30,
                          headers={"Host": host, "Accept-Encoding": encoding}).headers["etag"]
                for n in deployment.replicas
            }  # fmt: skip
            assert len(tags) == 1, (path, encoding, tags)


def test_a_crowd_on_one_link_reaches_the_replicas_at_most_five_times(deployment):
    link = "/?model=Qwen/Qwen3-1.7B"  # asked nowhere else in this module: the cache does not hold it yet
    before = requests_to(deployment, "/")

    def get(_: int) -> httpx.Response:
        with httpx.Client(base_url=deployment.url, cookies={replicas_.COOKIE: secrets.token_hex(12)}, timeout=30) as h:
            return h.get(link, headers={"Accept-Encoding": "gzip"})

    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(get, range(100)))
    assert {a.status_code for a in answers} == {200}
    reached = requests_to(deployment, "/") - before
    assert 1 <= reached <= 5, reached
    # the cache keeps each encoding apart: a client that takes no gzip never gets the gzip a crowd asked for
    plain = httpx.get(deployment.url + link, headers={"Accept-Encoding": "identity"}, timeout=30)
    assert plain.status_code == 200 and "content-encoding" not in plain.headers and "<html" in plain.text.lower()


def test_new_data_reaches_every_replica_though_the_webhook_reached_one(deployment):
    before = httpx.get(deployment.replica_url(2) + f"/api/v1/lookup?model={NEW_MODEL}", timeout=30).json()
    assert before.get("result") != "PASS"
    staged = write(deployment.data.parent / "staged.parquet", [row(NEW_MODEL, lib_version="5.0.0")])
    os.replace(staged, deployment.data / "new.parquet")  # whole, as an upload lands
    hook = httpx.post(deployment.replica_url(1) + "/webhooks/dataset", headers={"X-Webhook-Secret": SECRET},
                      json={"event": {"scope": "repo.content", "action": "update"}}, timeout=30)  # fmt: skip
    assert hook.status_code == 202
    began = time.monotonic()
    waiting = set(deployment.replicas)
    while waiting and time.monotonic() - began < 30:
        for number in sorted(waiting):
            answer = httpx.get(deployment.replica_url(number) + f"/api/v1/lookup?model={NEW_MODEL}", timeout=30)
            if answer.status_code == 200 and answer.json().get("result") == "PASS":
                waiting.discard(number)
        time.sleep(0.2)
    assert not waiting, f"replicas {sorted(waiting)} still serve the old data after 30 s (DATA_CHECK_SECONDS=1)"


def test_a_browser_gets_its_cookie_from_the_page_and_its_tab_stays_on_one_replica(deployment, page):
    """In Chromium through nginx: the first HTML's script sets the cookie before the page joins the queue, and
    every one of the tab's queue calls reaches the same replica. (A tested model's link mounts filled, with no
    queue call: opening another model from its table, one step back, makes them.)"""
    served: list[str] = []
    page.on(
        "response", lambda r: served.append(r.headers.get("x-replica", "")) if "/gradio_api/queue/" in r.url else None
    )
    page.goto(deployment.url + LINK)
    expect(page.locator("#details-summary h2")).to_contain_text("Qwen/Qwen3-0.6B", timeout=60_000)
    page.locator("#details-summary .back-to-table a").click()  # the model's page: its table is one step back
    expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=60_000)
    other = page.locator("#results [role=gridcell] a").filter(has_not_text="Qwen/Qwen3-0.6B").first
    name = other.text_content()
    other.click()
    expect(page.locator("#details-summary h2")).to_contain_text(name, timeout=60_000)
    (cookie,) = [c for c in page.context.cookies() if c["name"] == replicas_.COOKIE]
    assert re.fullmatch(r"[0-9a-f]{24}", cookie["value"]) and cookie["path"] == "/"
    assert len(served) >= 2 and len(set(served)) == 1 and served[0].startswith("replica-"), served


def test_the_replica_that_served_the_last_visit_killed_mid_burst_fails_no_later_visit(deployment):
    cookies = [secrets.token_hex(12) for _ in range(90)]
    results: list[tuple[float, bool, str]] = []  # when a visit began, whether it failed, who served it
    lock = threading.Lock()
    killed: dict[str, float] = {}

    def one(cookie: str) -> None:
        began = time.monotonic()
        try:
            answers = visit(deployment.url, cookie)
            who, bad = answers[-1].headers.get("x-replica", ""), failed(answers)
        except httpx.HTTPError:
            who, bad = "", True
        with lock:
            results.append((began, bad, who))
            if len(results) == 20 and not killed:  # mid-burst: the replica that served the last visit goes
                number = int(who.rsplit("-", 1)[1])
                os.kill(deployment.replicas[number][0], signal.SIGKILL)
                killed[who] = time.monotonic()

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(one, cookies))
    assert killed, "no replica was killed"
    ((victim, at),) = killed.items()
    after = [(bad, who) for began, bad, who in results if began > at]
    assert len(after) >= 30, len(after)
    assert not [who for bad, who in after if bad], "visits that began after the kill failed"
    assert victim not in {who for _, who in after}  # its visitors moved to the others


def test_sigterm_stops_nginx_and_every_replica(deployment):
    os.killpg(deployment.process.pid, 0)  # still running
    deployment.process.send_signal(signal.SIGTERM)
    deployment.process.wait(timeout=60)
    pids = [pid for pid, _ in deployment.replicas.values()]
    nginx = [int(line.split()[2]) for line in deployment.output if line.startswith("nginx pid ")]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in pids + nginx):
        time.sleep(0.1)
    assert not [pid for pid in pids + nginx if Path(f"/proc/{pid}").exists()]
