"""9. Expectation: how often the verdict for an untested model matches the real result, models held out.

    python benchmarks/expectation.py [--dataset DIR] [--models FILE]

On every stack of a dataset (default: the bundled sample with the bundled model records), each tested
fine-tune — a model with a PASS or FAIL whose nearest base model with a row on that stack also has a
PASS or FAIL there — is held out in turn: its row on that stack is removed, its expectation is computed
from the rest exactly as /lookup computes it for a model nobody ran, and the verdict is checked against
the row that was removed ("likely runs" matches a PASS, "likely fails" a FAIL). The same is then done
for every tested model, to measure the architecture rule where no base model speaks. The baseline is
the share a constant guess would get right ("always likely runs": the PASS share of the models held out).
The bundled sample is made up, so on it the figures measure the rules against a made-up story; point
--dataset and --models at the published dataset and fresh records for the real figure.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import common
from common import Figure

if str(common.ROOT) not in sys.path:
    sys.path.insert(0, str(common.ROOT))

from components.domain.results import FAIL, PASS, result_kind  # noqa: E402
from components.queries.details import lookup  # noqa: E402
from components.queries.evidence import base_model_evidence  # noqa: E402
from components.sources.dataset import load  # noqa: E402
from components.sources.records import BUNDLED_RECORDS, Records, load_records  # noqa: E402
from components.sources.snapshot import Snapshot  # noqa: E402

MATCHES = {"likely runs": PASS, "likely fails": FAIL}


def held_out(snapshot: Snapshot, records: Records, fine_tunes_only: bool) -> list[dict]:
    """Each tested (PASS or FAIL) model on each stack, held out: {model_id, stack, actual, verdict, basis, reason}.
    With `fine_tunes_only`, only models whose nearest base model on that stack has a PASS or FAIL there.

    An expectation reads only the stack asked about, so each hold-out rebuilds a snapshot of that stack's
    rows alone, without the one held out: what the app would know had that run never happened."""
    cases = []
    for stack in snapshot.stacks:
        rows = snapshot.rows.iloc[snapshot.stack_positions(stack)]
        kinds = snapshot.kind[snapshot.stack_positions(stack)]
        for label, model_id, actual in zip(rows.index, rows["model_id"], kinds):
            if actual not in (PASS, FAIL) or len(rows) < 2:
                continue
            rest = Snapshot(rows.drop(index=label), snapshot.provenance)
            if fine_tunes_only:
                base = base_model_evidence(rest, records, rest.newest, model_id)
                if base is None or result_kind(base["result"]) not in (PASS, FAIL):
                    continue
            found = lookup(rest, model_id, records=records)["expectation"]
            cases.append(
                {"model_id": model_id, "stack": stack.label, "actual": str(actual), "verdict": found["verdict"],
                 "basis": found["basis"], "reason": found["reason"]}
            )  # fmt: skip
    return cases


def summary(cases: list[dict]) -> dict:
    """Counts per verdict, how many of each matched the real result, and the constant guesses' shares."""
    verdicts = Counter(c["verdict"] for c in cases)
    matched = Counter(c["verdict"] for c in cases if MATCHES.get(c["verdict"]) == c["actual"])
    actual = Counter(c["actual"] for c in cases)
    return {
        "cases": len(cases),
        "verdicts": dict(verdicts),
        "matched": dict(matched),
        "passed": actual[PASS],
        "failed": actual[FAIL],
        "by_basis": dict(Counter((c["basis"], c["verdict"], MATCHES.get(c["verdict"]) == c["actual"]) for c in cases)),
    }


def figures(name: str, s: dict) -> list[Figure]:
    """Rows of the results table: for each verdict, the share that matched (baseline: a constant guess)."""
    out = []
    for verdict, kind, base in (("likely runs", PASS, s["passed"]), ("likely fails", FAIL, s["failed"])):
        n, hit = s["verdicts"].get(verdict, 0), s["matched"].get(verdict, 0)
        out.append(
            Figure(
                f"{name}: '{verdict}' matched",
                f"{s['cases']} held out",
                100 * hit / n if n else float("nan"),
                "%",
                100 * base / s["cases"] if s["cases"] else None,
                note=f"{hit} of {n} were {kind.upper()}; baseline: always '{verdict}' ({base} of {s['cases']})",
            )  # fmt: skip
        )
    unknown = s["verdicts"].get("unknown", 0)
    out.append(
        Figure(
            f"{name}: 'unknown'",
            f"{s['cases']} held out",
            100 * unknown / s["cases"] if s["cases"] else 0.0,
            "%",
            note=f"{unknown} of {s['cases']} got no verdict",
        )  # fmt: skip
    )
    return out


def measure(dataset: Path | str = common.SAMPLE, models: Path | str = BUNDLED_RECORDS) -> dict[str, dict]:
    snapshot, records = load(str(dataset)), load_records(models)
    return {
        "fine-tunes": summary(held_out(snapshot, records, fine_tunes_only=True)),
        "every tested model": summary(held_out(snapshot, records, fine_tunes_only=False)),
    }


def run(quick: bool = False) -> list[Figure]:
    """The same in quick mode: the sample is small, so there is nothing to shorten."""
    found = measure()
    return [f for name, s in found.items() for f in figures(name, s)]


def text(found: dict[str, dict]) -> str:
    """The figures in words, one block per population."""
    lines = []
    for name, s in found.items():
        lines.append(f"{name}: {s['cases']} held out ({s['passed']} PASS, {s['failed']} FAIL)")
        for verdict in ("likely runs", "likely fails", "unknown"):
            n = s["verdicts"].get(verdict, 0)
            if verdict == "unknown":
                lines.append(f"  {verdict:13} {n:4}  ({n / s['cases']:.0%} of all)" if s["cases"] else "")
                continue
            hit = s["matched"].get(verdict, 0)
            share = f"{hit / n:.0%}" if n else "—"
            lines.append(f"  {verdict:13} {n:4}  matched {hit} ({share})")
        for (basis, verdict, hit), n in sorted(s["by_basis"].items()):
            if verdict != "unknown":
                lines.append(f"    by {basis:12} {verdict:13} {'matched' if hit else 'missed':7} {n}")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=str(common.SAMPLE), help="a folder of Parquet files (default: the sample)")
    parser.add_argument("--models", default=str(BUNDLED_RECORDS), help="a model records file (default: bundled)")
    parser.add_argument("--quick", action="store_true", help="accepted for run_all's sake; changes nothing")
    args = parser.parse_args()
    found = measure(args.dataset, args.models)
    print(text(found))
    print()
    held = [f for name, s in found.items() for f in figures(name, s)]
    print(common.table("Expectation: verdicts against the real result, each model held out", held))
