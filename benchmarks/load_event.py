"""What the Models page's load event costs on the event loop, in-process: Gradio's `process_api` for the page's
load with a fresh session each time (as each new visitor has), the kept answer already made. Its cost is
Gradio's handling of the answer's updates (each `gr.update` makes the session its own copy of the component),
so it is measured as served (both patches of `components/web/gradio/patches/sessions.py`), with `ARGSPECS`
standing down, and with Gradio's own `SessionState` as well, taking turns, in the same run.

    python benchmarks/load_event.py [--calls N]

Not part of `run_all.py`: it measures one function in-process, not the app over HTTP.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gradio import state_holder  # noqa: E402

import app as the_app  # noqa: E402
from components.sources.app_sources import Sources  # noqa: E402
from components.sources.dataset_store import DatasetStore  # noqa: E402
from components.sources.rankings_store import resolve_rankings  # noqa: E402
from components.sources.records_store import RecordsStore  # noqa: E402
from components.web.gradio import mount  # noqa: E402
from components.web.gradio.patches import sessions  # noqa: E402


async def timed(demo, load, session_class, calls: int, argspecs: bool = True) -> list[float]:
    if argspecs:
        return await _timed(demo, load, session_class, calls)
    with sessions.without_argspecs():  # Gradio's own reading of each constructor
        return await _timed(demo, load, session_class, calls)


async def _timed(demo, load, session_class, calls: int) -> list[float]:
    took = []
    for _ in range(calls):
        session = session_class(demo)
        began = time.perf_counter()
        await demo.process_api(load, [], state=session, request=None)
        took.append((time.perf_counter() - began) * 1000)
    return took


async def measure(calls: int) -> None:
    sources = Sources(
        DatasetStore(str(ROOT / "data" / "sample")),
        resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json")),
        RecordsStore(ROOT / "data" / "models_snapshot.json", live=False),
    )
    sources.begin()
    sources.start()
    demo = the_app.build(sources)
    mount.build(demo, sources, host="127.0.0.1", port=7860)  # the app as served, its patches applied
    load = next(fn for fn in demo.fns.values() if any(target[1] == "load" for target in fn.targets))
    answer = await demo.process_api(load, [], state=sessions.LeanSessionState(demo), request=None)
    updates = sum(isinstance(v, dict) and v.get("__type__") == "update" for v in answer["data"])
    print(
        f"load event: {len(load.outputs)} outputs, {updates} of them updates, {len(json.dumps(answer['data'])):,} bytes"
    )
    served, unremembered, gradios = [], [], []
    for _ in range(5):  # taking turns, so a busy machine slows each alike
        served += await timed(demo, load, sessions.LeanSessionState, calls // 5)
        unremembered += await timed(demo, load, sessions.LeanSessionState, calls // 5, argspecs=False)
        gradios += await timed(demo, load, sessions.ORIGINAL, calls // 5, argspecs=False)
    kinds = (
        ("as served", served),
        ("ARGSPECS standing down", unremembered),
        ("Gradio's own SessionState too", gradios),
    )
    for name, took in kinds:
        p95 = statistics.quantiles(took, n=20)[-1]
        print(f"{name}: p50 {statistics.median(took):.2f} ms, mean {statistics.fmean(took):.2f} ms, p95 {p95:.2f} ms")
    print(
        f"({len(served)} calls each, bundled sample, state_holder.SessionState is {state_holder.SessionState.__name__})"
    )
    sources.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=500, help="calls of each kind (default 500)")
    asyncio.run(measure(max(5, parser.parse_args().calls)))


if __name__ == "__main__":
    main()
