"""What two of Gradio's costs weigh, to decide whether a patch is worth keeping (docs/architecture.md).

    python benchmarks/patch_gains.py [--quick]

- `build_once`: building the page and its server (`app.build` + `mount.build`) with the patch and without it
  (each Blocks' server app built at the end of every `with` block and in `queue()`, as Gradio does), each in
  a fresh process, alternating.
- import probes (the dropped `probes` patch): one `gr.Plot` config and one matplotlib backend switch, with
  the missing libraries searched for on `sys.path` each time (Gradio's way) and remembered as missing.
"""

from __future__ import annotations

import json
import subprocess
import sys

import common
from common import Figure

BUILD = """
import json, sys, time
sys.path.insert(0, {root!r})
import app
from components.sources.app_sources import Sources
from components.sources.rankings_store import resolve_rankings
from components.sources.records_store import resolve_records
from components.sources.dataset_store import DatasetStore
from components.web import server
from components.web.gradio import mount
from components.web.gradio.patches import build_once
if {off}:
    build_once.apply_patch = lambda *args, **kwargs: False  # stands down: Gradio builds as it does
sources = Sources(DatasetStore({sample!r}), resolve_rankings({rankings!r}), resolve_records(None))
sources.begin()
began = time.perf_counter()
mount.build(app.build(sources), sources)
print(json.dumps(time.perf_counter() - began))
"""

PROBES = """
import importlib.util, json, sys, time
from gradio import utils
from gradio.components import plot
p = plot.Plot()
def each(n=300):
    began = time.perf_counter()
    for _ in range(n):
        p.get_config()
        with utils.MatplotlibBackendMananger():
            pass
    return (time.perf_counter() - began) / n
searched = each()
for name in ("bokeh", "matplotlib"):
    if importlib.util.find_spec(name) is None:
        sys.modules[name] = None
print(json.dumps([searched, each()]))
"""


def seconds(code: str) -> object:
    out = subprocess.run([sys.executable, "-c", code], cwd=common.ROOT, capture_output=True, text=True,
                         env={**__import__("os").environ, **common.ENV}, check=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> list[Figure]:
    runs = 1 if quick else 5
    args = {"root": str(common.ROOT), "sample": str(common.SAMPLE), "rankings": str(common.RANKINGS)}
    with_patch, without = [], []
    for _ in range(runs):
        with_patch.append(seconds(BUILD.format(off=False, **args)))
        without.append(seconds(BUILD.format(off=True, **args)))
    searched, remembered = seconds(PROBES)
    return [
        Figure("page and server built, build_once on", "sample", common.median(with_patch), "s",
               common.median(without), note=f"baseline: build_once standing down; median of {runs}, alternating"),
        Figure("a plot config + backend switch, missing libraries remembered", "-", round(remembered * 1e6), "µs",
               round(searched * 1e6), note="baseline: searched on sys.path each time (Gradio's way); the probes patch is dropped"),
    ]  # fmt: skip


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("What a patch saves", run(quick), quick))
