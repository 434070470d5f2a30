"""The plain HTTP API against the named endpoints: `GET /api/v1/search` and `/api/v1/lookup` beside
`POST /gradio_api/call/NAME` + its event stream, the same arguments on the same app, calls alternating.

    python benchmarks/api_v1.py [--quick]

The baseline of each figure is the named endpoint's time in the same run. The ETag is a hash of the
body sent: its cost is timed apart on the largest answer (every row of the newest stack), and a 304
(If-None-Match) is timed beside the 200 it saves sending.
"""

from __future__ import annotations

import hashlib
import random
import sys
import time

import common
import httpx
from common import Figure

PATH = "/api/v1"


def get(
    client: httpx.Client, url: str, name: str, params: dict, etag: str | None = None
) -> tuple[float, httpx.Response]:
    """GET /api/v1/NAME; (seconds, the response)."""
    headers = {"If-None-Match": etag} if etag else {}
    started = time.perf_counter()
    answer = client.get(f"{url}{PATH}/{name}", params=params, headers=headers)
    elapsed = time.perf_counter() - started
    if answer.status_code not in (200, 304):
        raise common.CallError(f"GET {PATH}/{name}: HTTP {answer.status_code} {answer.text[:200]}")
    return elapsed, answer


def paired(client, url: str, cases: list[tuple[str, dict, list]]) -> tuple[list[float], list[float]]:
    """(GET times, named-endpoint times) in ms, each case called both ways, alternating."""
    plain, named = [], []
    for name, params, data in cases:
        named.append(common.call(client, url, name, data)[0] * 1000)
        plain.append(get(client, url, name, params)[0] * 1000)
    return plain, named


def figures_for(
    name: str, what: str, rows: str, plain: list[float], named: list[float], note: str = ""
) -> list[Figure]:
    """p50 and p95 of GET /api/v1/NAME, each beside the named endpoint's."""
    note = (note + "; " if note else "") + f"baseline: the named endpoint /{name}, the same calls in the same run"
    return [
        Figure(f"GET {PATH}/{name} p50, {what}", rows, common.median(plain), "ms", common.median(named), note=note),
        Figure(
            f"GET {PATH}/{name} p95, {what}", rows, common.percentile(plain, 95), "ms", common.percentile(named, 95)
        ),
    ]


def etag_cost(body: bytes, n: int = 50) -> tuple[float, float]:
    """Median ms to make the route's ETag of `body`, and to hash it with BLAKE2b instead."""
    if str(common.ROOT) not in sys.path:
        sys.path.insert(0, str(common.ROOT))
    from components.web.etags import tag_of as etag

    def timed(tag) -> float:
        times = []
        for _ in range(n):
            started = time.perf_counter()
            tag(body)
            times.append((time.perf_counter() - started) * 1000)
        return common.median(times)

    return timed(etag), timed(lambda b: hashlib.blake2b(b, digest_size=16).hexdigest())


def run(quick: bool = False) -> list[Figure]:
    rows = common.rows_for(quick)["large"]
    n = 20 if quick else 200
    label = common.rows_label(rows)
    figures: list[Figure] = []
    with common.ours(common.dataset(rows)) as ours, httpx.Client(timeout=120) as client:
        url = ours.url
        search = ("search", {"q": common.QUERY}, [common.QUERY, "selected", "", "", ""])
        for _ in range(5):  # warm both ways and the memo of the query
            paired(client, url, [search])
        figures += figures_for("search", f"'{common.QUERY}', large set", label, *paired(client, url, [search] * n))

        found = common.call(client, url, "search", ["", "selected", "", "", ""])[1][0]
        stacks = common.call(client, url, "stacks", [])[1][0]
        rng = random.Random(11)
        cases = []
        for _ in range(n):
            model, stack = rng.choice(found)["model_id"], rng.choice(stacks)
            params = {"model": model, "neuronx_cc": stack["neuronx_cc"], "library_version": stack["library_version"]}
            cases.append(("lookup", params, [model, stack["neuronx_cc"], stack["library_version"]]))
        figures += figures_for("lookup", "large set", label, *paired(client, url, cases),
                               note=f"{n} random models on random stacks, the same calls both ways")  # fmt: skip

        empty = [("search", {}, ["", "selected", "", "", ""])] * max(3, n // 10)
        plain, named = paired(client, url, empty)
        body = get(client, url, "search", {})[1].content
        cost, blake2b = etag_cost(body)
        figures += figures_for("search", "empty query, large set", label, plain, named,
                               note=f"every row of the newest stack ({len(found):,} rows, {len(body) / 1024:,.0f} KB); "
                                    f"its ETag (SHA-256 of the body) takes {cost:.2f} ms of it (BLAKE2b: {blake2b:.2f} ms)")  # fmt: skip

        model = found[0]["model_id"]
        _, first = get(client, url, "lookup", {"model": model})
        full, revalidated = [], []
        for _ in range(n):
            full.append(get(client, url, "lookup", {"model": model})[0] * 1000)
            revalidated.append(get(client, url, "lookup", {"model": model}, first.headers["etag"])[0] * 1000)
        figures.append(Figure(f"GET {PATH}/lookup p50, If-None-Match (304), large set", label, common.median(revalidated), "ms",
                              common.median(full), note="baseline: the same GET without If-None-Match (200)"))  # fmt: skip
    return figures


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Plain HTTP API against the named endpoints (ms)", run(quick), quick))
