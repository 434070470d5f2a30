"""What a request costs the app: CPU per request on each route, for a normal input and for the worst input
known for that route, against the same app.

    python benchmarks/cost.py [--quick]

The app serves the small synthetic set. Each case sends its requests one after another from one client and
reads the app process's CPU time (Linux `/proc/PID/stat`: user + system) before and after, so the figure is
what the server spent, whatever the client waited. Worst inputs change from request to request where the
app keeps answers (a made-up model, a new search), so no cache hides them. A worst case may cost more
than its normal request in proportion to the bytes of its answer; `ratio` is the worst's CPU per request
over the normal's, `per byte` that ratio divided by how many times larger the worst answer is (when it is),
and the goal is at most 20× per byte.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

import common
import httpx
from common import Figure

GOAL = 20.0
MODEL = "Qwen/Qwen3-8B"
LLAMA = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256,
}  # fmt: skip
# a search of 100 one-letter words, the longest a query may be (settings.SEARCH_TEXT, 200)
MANY_WORDS = " ".join("abcdefghijklmnopqrstuvwxyz"[i % 26] for i in range(100))
# an unterminated string of escaped quotes filling /api/v1/check_config's 256 KB body: the old quadratic scan
ESCAPED_QUOTES = '{"a": "' + '\\"' * (128 * 1024 - 8)
MANY_KEYS = "{" + ",".join(f'"k{i:06}":0' for i in range(256 * 1024 // 12)) + "}"

Request = Callable[[int], httpx.Request]


def get(path: str, **params: str | Callable[[int], str]) -> Request:
    """GET `path`; a parameter given as a function of the request's number varies from request to request."""
    return lambda i: httpx.Request("GET", path, params={k: v(i) if callable(v) else v for k, v in params.items()})


def post(path: str, body: str | Callable[[int], str], **params: str) -> Request:
    return lambda i: httpx.Request("POST", path, params=params, content=(body(i) if callable(body) else body).encode())


def named(name: str, *data: str | Callable[[int], str]) -> Request:
    """A named endpoint over plain HTTP: the POST (its event stream is read by `measure`)."""
    return lambda i: httpx.Request(
        "POST", f"/gradio_api/call/{name}", json={"data": [d(i) if callable(d) else d for d in data]}
    )


@dataclass
class Case:
    route: str
    normal: Request
    normal_input: str
    worst: Request
    worst_input: str


def cases(stacks: list[dict]) -> list[Case]:
    newest, oldest = stacks[0], stacks[-1]
    return [
        Case("GET / (the Models page)", get("/"), "no parameters",
             get("/", model=lambda i: f"made-up/model-{i}", q=MANY_WORDS, view="trending"),
             "a made-up model, a 200-character query of 100 words, the Trending view"),
        Case("GET /card.png", get("/card.png", model=MODEL), "a kept card",
             get("/card.png", model=lambda i: f"made-up/model-{i}"),
             "a made-up model each time, from one address (past its allowance: the app's card)"),
        Case("GET /api/v1/search", get("/api/v1/search", q=lambda i: common.QUERIES[i % len(common.QUERIES)]),
             "what people type (llama, qwen3 0.6b...)",
             get("/api/v1/search", q=lambda i: f"{MANY_WORDS[: 200 - 4]} {i:03}"),
             "100 one-letter words, new each time (200 characters)"),
        Case("GET /api/v1/lookup", get("/api/v1/lookup", model=MODEL), "a tested model",
             get("/api/v1/lookup", model=lambda i: f"made-up-org/llama-{i}-8b-instruct"),
             "an untested made-up model each time (evidence, expectation, suggested run.py)"),
        Case("GET /api/v1/compare",
             get("/api/v1/compare", neuronx_cc_a=stacks[1]["neuronx_cc"], library_version_a=stacks[1]["library_version"]),
             "the two newest stacks",
             get("/api/v1/compare", neuronx_cc_a=oldest["neuronx_cc"], library_version_a=oldest["library_version"]),
             "the oldest stack against the newest"),
        Case("GET /api/v1/failures", get("/api/v1/failures"), "the newest stack",
             get("/api/v1/failures", neuronx_cc=oldest["neuronx_cc"], library_version=oldest["library_version"]),
             "the oldest stack (the most failures)"),
        Case("POST /api/v1/check_config", post("/api/v1/check_config", json.dumps(LLAMA)), "a Llama config.json",
             post("/api/v1/check_config", ESCAPED_QUOTES), "256 KB of escaped quotes, unterminated"),
        Case("POST /api/v1/check_config (keys)", post("/api/v1/check_config", json.dumps(LLAMA)), "a Llama config.json",
             post("/api/v1/check_config", MANY_KEYS), "256 KB: 21,845 keys"),
        Case("GET /export/csv", get("/export/csv", q="llama"), "a search's rows",
             get("/export/csv", neuronx_cc=newest["neuronx_cc"]), "every row of the newest stack"),
        Case("GET /badge", get("/badge", model=MODEL), "a tested model",
             get("/badge", model=lambda i: f"made-up/model-{i}", neuronx_cc="9.9.9"),
             "a made-up model each time, on an unknown stack"),
        Case("GET /feed.atom", get("/feed.atom"), "every model",
             get("/feed.atom", model=lambda i: f"made-up/model-{i}"), "a made-up model's feed each time"),
        Case("/search (named endpoint)",
             named("search", lambda i: common.QUERIES[i % len(common.QUERIES)], "selected", "", "", ""),
             "what people type",
             named("search", lambda i: f"{MANY_WORDS[: 200 - 4]} {i:03}", "downloads", "", "", ""),
             "100 one-letter words, new each time, in the Downloads view"),
        Case("/lookup (named endpoint)", named("lookup", MODEL, "", ""), "a tested model",
             named("lookup", lambda i: f"made-up-org/llama-{i}-8b-instruct", "", ""), "an untested made-up model"),
        Case("/check_config (named endpoint)", named("check_config", json.dumps(LLAMA), "", ""), "a Llama config.json",
             named("check_config", '{"a": "' + '\\"' * (240 * 1024), "", ""), "480 KB of escaped quotes (a ~1 MB body)"),
    ]  # fmt: skip


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def send(client: httpx.Client, request: Request, i: int) -> int:
    """One request (and, for a named endpoint, the read of its result); the bytes answered."""
    built = request(i)
    answer = client.send(client.build_request(built.method, built.url, content=built.content, headers=built.headers))
    if answer.status_code >= 500 or answer.status_code in (404, 405, 413):
        raise common.CallError(f"{built.method} {built.url.path}: HTTP {answer.status_code} {answer.text[:200]}")
    if answer.request.url.path.startswith("/gradio_api/call/"):
        name = answer.request.url.path.rsplit("/", 1)[1]
        answer = client.get(f"/gradio_api/call/{name}/{answer.json()['event_id']}")
    return len(answer.content)


def measure(client: httpx.Client, pid: int, request: Request, n: int, offset: int) -> tuple[float, float]:
    """(CPU ms per request, mean bytes answered) over `n` requests."""
    send(client, request, offset + n)  # what a first request loads once (a module, a memo) is not counted
    before = cpu_seconds(pid)
    sizes = [send(client, request, offset + i) for i in range(n)]
    return (cpu_seconds(pid) - before) * 1000 / n, sum(sizes) / n


def run(quick: bool = False) -> list[Figure]:
    rows = common.rows_for(quick)["small"]
    n = 8 if quick else 40
    figures = []
    with common.ours(common.dataset(rows)) as app, httpx.Client(base_url=app.url, timeout=120) as client:
        assert app.proc is not None
        stacks = client.get("/api/v1/stacks").json()
        for k, case in enumerate(cases(stacks)):
            normal, normal_bytes = measure(client, app.proc.pid, case.normal, n, 0)
            worst, worst_bytes = measure(client, app.proc.pid, case.worst, n, 1000 * (k + 1))
            per_byte = worst / max(normal, 0.01) / max(1.0, worst_bytes / max(normal_bytes, 1))
            figures.append(Figure(
                f"cost: {case.route}", common.rows_label(rows), worst, "ms", normal,
                goal=f"≤ {GOAL:g}× per byte", met=per_byte <= GOAL,
                note=f"normal: {case.normal_input} ({normal_bytes:,.0f} B); worst: {case.worst_input} "
                     f"({worst_bytes:,.0f} B); {per_byte:.1f}× per byte",
            ))  # fmt: skip
    return figures


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Cost per request (CPU of the app)", run(quick), quick))
