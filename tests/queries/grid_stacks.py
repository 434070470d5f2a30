"""Four Transformers stacks where every cell status and both "since" fields of the support grid occur: an
architecture untested on a stack in the middle, an EXCLUDED-only cell, a newly tested failing model, a regression
across a gap of stacks, a regression fixed later, a re-run on one stack; and models of unknown architecture."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from components.sources.dataset import load
from components.sources.records import ModelRecord, Records
from components.sources.snapshot import Snapshot
from tests.helpers import row, write

# oldest first, as the grid lists them
STACKS = (("2.21.1.0+aaaa0001", "4.55.0"), ("2.24.1.0+aaaa0002", "4.56.0"), ("2.26.1.0+aaaa0003", "4.57.1"),
          ("2.28.1.0+aaaa0004", "4.57.1"))  # fmt: skip
S1, S2, S3, S4 = ({"neuronx_cc": cc, "library_version": lv} for cc, lv in STACKS)
TG, VLM = "text-generation", "image-text-to-text"

# model: (task, architecture, its result on S1..S4, None: no run there)
MODELS = {
    # works since S1: S2 has no PASS or FAIL (an EXCLUDED-only cell), so it is skipped
    "works/a-1B": (TG, "WorksForCausalLM", ("PASS", None, "PASS", "PASS")),
    "works/b-1B": (TG, "WorksForCausalLM", (None, "EXCLUDED", None, None)),
    # regressed on S3 across S2, where it has no run, and still failing on S4; a model that never passed is no break
    "gap/a-1B": (TG, "GapForCausalLM", ("PASS", None, "FAIL", "FAIL")),
    "gap/b-1B": (TG, "GapForCausalLM", ("FAIL", "FAIL", "FAIL", "FAIL")),
    # a newly tested model that fails makes S4 partial, not regressed
    "new/a-1B": (TG, "NewForCausalLM", ("PASS", "PASS", "PASS", "PASS")),
    "new/b-1B": (VLM, "NewForCausalLM", (None, None, None, "FAIL")),
    # regressed on S2, fixed on S3: history, not "since"
    "fixed/a-1B": (TG, "FixedForCausalLM", ("PASS", "FAIL", "PASS", "PASS")),
    # fails throughout; a result the app does not know counts as other
    "fails/a-1B": (TG, "FailsForCausalLM", ("FAIL", "FAIL", "FAIL", "FAIL")),
    "fails/b-1B": (TG, "FailsForCausalLM", ("MAYBE", None, None, None)),
    # architecture unknown: a record without one, and no record at all
    "unknown/a-1B": (TG, None, ("PASS", None, None, None)),
    "unknown/b-1B": (None, None, ("PASS", None, None, None)),
}
NO_RECORD = "unknown/b-1B"


def four_stacks(folder: Path) -> tuple[Snapshot, Records]:
    """The dataset written to `folder` and loaded, and the models' records."""
    for i, (cc, lv) in enumerate(STACKS):
        rows = []
        for model_id, (_, _, results) in MODELS.items():
            result = results[i]
            if result is None:
                continue
            extra = {"exclusion": "not prioritized"} if result == "EXCLUDED" else {}
            rows.append(row(model_id, cc=cc, lib_version=lv, result=result, **extra))
        if i == 1:  # a re-run: the newest run on a stack counts, whatever the order of the rows
            rows.append(
                row("fixed/a-1B", cc=cc, lib_version=lv, result="PASS", tested_at=datetime(2025, 1, 1, tzinfo=UTC))
            )
        write(folder / f"stack-{i}.parquet", rows)
    records = Records(
        {
            m: ModelRecord(m, task=task, architecture=architecture)
            for m, (task, architecture, _) in MODELS.items()
            if m != NO_RECORD
        },
        "test",
    )
    return load(folder), records
