"""The text readers on their worst known inputs, at the size the app lets in, in this process: how long each
takes. tests/hardening/test_worst_inputs.py and the config check's hostile-shape tests assert what each answers
(a hang guard bounds them, not a speed goal); the figures are here. Each takes milliseconds, where a
backtracking pattern took minutes (the config check, issue 41) or hours (a size range of a megabyte of spaces).

`python benchmarks/worst_inputs.py [--quick]` (also run by `run_all.py`; quick: each input read once, not five
times). Over HTTP, with the app's CPU per request: benchmarks/cost.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import common
from common import Figure

if str(common.ROOT) not in sys.path:
    sys.path.insert(0, str(common.ROOT))

from components.queries import causes, config_check, sizes, views  # noqa: E402
from components.queries.errors import ConfigError  # noqa: E402
from components.runtime import settings  # noqa: E402
from components.sources.snapshot import search_key  # noqa: E402

BODY = 1024 * 1024  # the body limit: the most any one value can carry
LINE = settings.ERROR_LINE_READ.value


def config(text: str) -> Callable[[], object]:
    """The config check's parse of `text`; a refusal is its answer here."""

    def parse() -> object:
        try:
            return config_check.parse_config(text)
        except ConfigError as error:
            return str(error)

    return parse


def error_text(line: str) -> str:
    return "\n".join([line] * settings.ERROR_LINES_READ.value * 2)  # past the lines kept, each at the longest kept


CASES: dict[str, tuple[str, Callable[[], object]]] = {
    "size range: a megabyte of spaces": ("1 MB", lambda: sizes.parse("-" + " " * BODY + "x")),
    "size normalised: a megabyte of '1.'": ("1 MB", lambda: sizes.normalise("1." * (BODY // 2))),
    "query normalised: a megabyte of 'a-'": (
        "1 MB × 4 fields",
        lambda: views.normalise(
            text="a-" * (BODY // 2), task="a-" * (BODY // 2), size="a-" * (BODY // 2), neuronx_cc="a-" * (BODY // 2)
        ),
    ),  # fmt: skip
    "search key: a megabyte of 'a '": ("1 MB", lambda: search_key("a " * (BODY // 2))),
    "error cause: lines of hex and dashes": (
        f"{settings.ERROR_LINES_READ.value * 2:,} lines × {LINE:,} chars",
        lambda: causes.cause_of(error_text("f-" * (LINE // 2))),
    ),
    "error cause: dotted lines": (
        f"{settings.ERROR_LINES_READ.value * 2:,} lines × {LINE:,} chars",
        lambda: causes.cause_of(error_text("a." * (LINE // 2))),
    ),
    "config check: unterminated escaped quotes": (
        "1 MB",
        config('{"a": "' + '\\"' * (BODY // 2 - 8)),
    ),
    "config check: deep brackets": ("1 MB", config("[" * BODY)),
}


def took_ms(work: Callable[[], object], times: int) -> float:
    """The median of `times` runs of `work`, in milliseconds."""
    runs = []
    for _ in range(times):
        began = time.perf_counter()
        work()
        runs.append((time.perf_counter() - began) * 1000)
    return common.median(runs)


def run(quick: bool = False) -> list[Figure]:
    times = 1 if quick else 5
    return [
        Figure(f"worst input: {name}", size, took_ms(work, times), "ms", note=f"median of {times} run(s), in process")
        for name, (size, work) in CASES.items()
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(common.report("The text readers on their worst inputs", run(parser.parse_args().quick), False))
