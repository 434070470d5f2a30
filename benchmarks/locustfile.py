"""Locust users replaying the recorded Chromium visit (`visit.json`) against one app; `visitors.py` runs it.

Each user is one new tab, then stops: it opens the link's first HTML, holds the page's heartbeat for
`VISIT_HOLD` seconds (when the recorded tab opened one), fetches Gradio's scripts and styles if it is one
new visitor in `VISIT_ASSETS_EVERY`, sends the load event to the queue (`queue/join`) and reads the queue's
result stream until the event completes. Every request carries the visitor's own `X-Forwarded-For` from
198.18.0.0/15 (the benchmarking range), as a Space's proxy names each visitor.

In `VISIT_MODE=tabs` a user only opens a heartbeat and holds it: the crowd of tabs left open.

With `VISIT_MODELS` (a JSON file holding a list of model ids) visitor N follows the link of model N of that
list, in turn, instead of the recorded one: a crowd spread over many links rather than one shared link.

When the queue is full (`queue/join` answers 503) the tab does what the page's own script does: it waits
5 s, then 10, 20, 40 (±25%), reloads the link and joins again; a visit that retried is counted apart.

Each visit's times from its start: `first_html`, `joined` (scripts fetched and the load event joined),
`stream_open` (the result stream's first message) and `live` (the load event completed).

A page that carries its live answer in its config (ours, for a tested model's link) has no load event: its
visit joins nothing, and its `live` is when its scripts are in hand (the page mounts already filled). A page
that has a load event (the floor's; ours for an untested model's link, which the app counts) joins it as
recorded (ours' from the visit recorded on an untested model's link, `ours_untested`).

A visit fails on any refused or broken request, a first HTML without the model's answer (ours), a page with a
load event the recording has none of, or a load event that does not complete. Each visit's figures go to the JSON file `VISIT_OUT` when the run ends.
"""

from __future__ import annotations

import ipaddress
import itertools
import json
import os
import random
import re
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import gevent
import visit as recording
from gevent.pool import Pool
from locust import HttpUser, events, task
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

TARGET = os.environ.get("VISIT_TARGET", "ours")
MODE = os.environ.get("VISIT_MODE", "visits")
HOLD = float(os.environ.get("VISIT_HOLD", "15"))
ASSETS_EVERY = int(os.environ.get("VISIT_ASSETS_EVERY", "10"))
VISITORS = int(os.environ["VISIT_USERS"])  # the run ends once each has visited
OUT = os.environ.get("VISIT_OUT", "")
TIMEOUT = 60.0  # past this a request counts as failed
PARALLEL_ASSETS = 6  # a browser's connections per host over HTTP/1.1
RETRIES = 4  # as the page does (`components/web/html/busy.py`): after 5, 10, 20, 40 s, each ±25%

RECORDED = recording.load()
VISIT = RECORDED[TARGET]
PAGE = next(v["path"] for v in VISIT if v["kind"] == "page")
HEARTBEAT = any(v["kind"] == "heartbeat" for v in VISIT)
ASSETS = [v["path"] for v in VISIT if v["kind"] == "asset"]
OTHERS = [v["path"] for v in VISIT if v["kind"] == "other" and v["method"] == "GET"]
# the load event as the page joins it, where its page has one: ours' is recorded on an untested model's link
JOINS = [(v["path"], v["body"]) for v in VISIT + RECORDED.get(f"{TARGET}_untested", []) if v["kind"] == "join"]
ANSWER = recording.MODEL if TARGET == "ours" else ""  # the floor's first HTML holds no rows
MODELS: list[str] = json.loads(Path(os.environ["VISIT_MODELS"]).read_text()) if os.environ.get("VISIT_MODELS") else []
# a dependency in the page's inlined config whose one trigger is the page's load and which runs on the server
LOAD_EVENT = re.compile(r'"targets":\[\[\d+,"load"\]\],"inputs":\[[^\]]*\],"outputs":\[[^\]]*\],"backend_fn":true')
ADDRESSES = ipaddress.ip_network("198.18.0.0/15")
NUMBERS = itertools.count(1)
RESULTS: list[dict] = []


class Failed(Exception):
    pass


def with_model(path: str, model: str) -> str:
    """`path` with its `model` query parameter set to `model` (a recorded path names the recorded model)."""
    parts = urlsplit(path)
    query = [(key, model if key == "model" else value) for key, value in parse_qsl(parts.query)]
    return parts._replace(query=urlencode(query, safe="/")).geturl()


def read_events(response, wanted: int) -> None:
    """Read a queue result stream until `wanted` events have completed; Failed on an error or an early end."""
    completed = 0
    for line in response.iter_lines():
        if not line.startswith(b"data:"):
            continue
        message = json.loads(line[5:])
        if message.get("msg") == "process_completed":
            if not message.get("success"):
                raise Failed(f"event failed: {str(message.get('output'))[:120]}")
            completed += 1
            if completed >= wanted:
                return
        elif message.get("msg") == "close_stream":
            break
    raise Failed(f"stream ended after {completed} of {wanted} events")


class Visitor(HttpUser):
    """One new tab following the shared link."""

    def on_start(self) -> None:
        # Chromium sends a request again, once, when a kept-alive connection it reused turns out closed
        # before any answer (the app closes idle ones after 5 s): so does each visitor.
        retry = Retry(total=1, connect=1, read=1, status=0, other=0, allowed_methods={"GET", "POST"},
                      raise_on_status=False)  # fmt: skip
        self.client.mount("http://", HTTPAdapter(max_retries=retry))
        self.number = next(NUMBERS)
        self.headers = {"X-Forwarded-For": str(ADDRESSES[self.number])}
        self.session = uuid.uuid4().hex[:11]
        # what the first HTML's script gives a browser (components/web/replicas.py): a balancer in front of
        # several replicas keeps this tab's queue calls on one of them; one process ignores it
        self.client.cookies.set("affinity", uuid.uuid4().hex[:24])
        model = MODELS[(self.number - 1) % len(MODELS)] if MODELS and TARGET == "ours" else ""
        self.page = with_model(PAGE, model) if model else PAGE
        self.joins = [(with_model(path, model), body) for path, body in JOINS] if model else JOINS
        self.answer = model or ANSWER

    def get(self, path: str, name: str, **kwargs):
        response = self.client.get(path, headers=self.headers, name=name, timeout=TIMEOUT, **kwargs)
        if response.status_code != 200:
            raise Failed(f"{name}: HTTP {response.status_code} {str(response.error or '')[:80]}".strip())
        return response

    def hold_heartbeat(self, until: float) -> None:
        response = self.get(f"/gradio_api/heartbeat/{self.session}", "heartbeat", stream=True)
        try:
            gevent.sleep(max(0.0, until - time.perf_counter()))
        finally:
            response.close()

    def join(self) -> bool:
        """The load events joined to the queue: True, or False when the queue is full (503)."""
        for path, body in self.joins:
            joined = self.client.post(path, json={**body, "session_hash": self.session}, headers=self.headers,
                                      name="join", timeout=TIMEOUT)  # fmt: skip
            if joined.status_code == 503 and b"Queue is full" in joined.content:
                return False
            if joined.status_code != 200:
                raise Failed(f"join: HTTP {joined.status_code} {str(joined.error or '')[:80]}".strip())
        return True

    def load_event(self, result: dict, started: float) -> None:
        """Join the page's load event to the queue (waiting and reloading while it is full, as the page does) and
        read its result stream until it completes."""
        while not self.join():  # the queue is full: the tab waits, reloads and joins again
            result["retries"] = result.get("retries", 0) + 1
            if result["retries"] > RETRIES:
                raise Failed(f"join: queue still full after {RETRIES} retries")
            gevent.sleep(min(60, 5 * 2 ** (result["retries"] - 1)) * random.uniform(0.75, 1.25))
            self.get(self.page, "page (retry)")
        result["joined"] = time.perf_counter() - started
        data = self.get(f"/gradio_api/queue/data?session_hash={self.session}", "data", stream=True)
        result["stream_open"] = time.perf_counter() - started  # its headers: sent with its first message
        try:
            read_events(data, len(self.joins))
        finally:
            data.close()
        result["live"] = time.perf_counter() - started

    @staticmethod
    def hold(heart) -> None:
        if heart is not None:
            heart.get(timeout=HOLD + TIMEOUT)  # re-raises the heartbeat's failure

    @task
    def visit(self) -> None:
        result: dict = {"ok": False}
        started = time.perf_counter()
        until = started + HOLD
        heart = None
        try:
            if MODE == "tabs":
                self.hold_heartbeat(until)
            else:
                page = self.get(self.page, "page")
                if self.answer and self.answer not in page.text:
                    raise Failed("page: no answer in the first HTML")
                result["first_html"] = time.perf_counter() - started
                loads = bool(LOAD_EVENT.search(page.text))
                if loads and not self.joins:
                    raise Failed("page: a load event the recording has none of")
                if HEARTBEAT:
                    heart = gevent.spawn(self.hold_heartbeat, until)
                fetched = ASSETS if self.number % ASSETS_EVERY == 1 else []
                Pool(PARALLEL_ASSETS).map(lambda path: self.get(path, "asset"), fetched + OTHERS)
                if loads:
                    self.load_event(result, started)
                else:  # the page mounts filled: live once its scripts are in hand
                    result["live"] = result["joined"] = time.perf_counter() - started
                self.hold(heart)
            result["ok"] = True
        except Exception as exc:  # noqa: BLE001 - every failure is a failed visit, counted with its reason
            result["why"] = f"{type(exc).__name__}: {exc}"[:160]
        finally:
            if heart is not None:
                heart.kill()
            RESULTS.append(result)
            if len(RESULTS) >= VISITORS:
                gevent.spawn_later(0.2, self.environment.runner.quit)
        self.client.close()
        gevent.sleep(float("inf"))  # the tab is closed; a stopped user would be replaced by a new visitor


@events.quitting.add_listener
def write_results(environment, **_kwargs) -> None:
    if OUT:
        with open(OUT, "w", encoding="utf-8") as out:
            json.dump(RESULTS, out)
