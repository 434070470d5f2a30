"""Failures by cause: a FAIL's error text reduced to what failed, and the causes that block models on a stack.

A cause is the error code where the text has one (`NCC_…` compiler codes, `NRT_…` runtime statuses), else
the exception type, plus the primary error line with what changes from run to run masked: numbers, sizes,
core and device ids, hex addresses, paths, line numbers and long quoted values. Its `signature` is a hash of
that reduction under a versioned algorithm (`ALGORITHM`), so the same failure on another stack has the same
signature. Change anything in the reduction and the version must change with it: stored signatures from an
older version then stop matching, rather than silently meaning something else.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from components.domain.results import FAIL, PASS
from components.sources.snapshot import Snapshot, Stack

ALGORITHM = "v1"
CODES_FILE = Path(__file__).resolve().parents[2] / "data" / "neuron_error_codes.json"
NO_ERROR_TEXT = "no error text"
# The end of a traceback says what broke: a huge text is read from its last lines only.
MAX_LINES = 2000
MAX_LINE = 1000
MAX_SUMMARY = 200
MAX_NAME = 120  # of an exception type
LONG_QUOTED = 64  # a quoted value longer than this is data (an output, a repr), not a name

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
_NCC = re.compile(r"\bNCC_[A-Z]{3,5}[0-9]{2,4}\b")
_NRT = re.compile(r"\bNRT_[A-Z][A-Z0-9_]*[A-Z0-9]\b")
# `Type: message` or a bare `Type` at the start of a line, the type a dotted name: how Python ends a traceback
_RAISED = re.compile(r"^((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*)(?::\s|:$|$)")
_ERROR_NAME = re.compile(r"(Error|Exception|Failed|Failure|Unsupported|Interrupt|Exit|Timeout|Fault)$")

# Masks, applied in this order to the primary line (see `mask`).
_MASKS: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(rf"'[^'\n]{{{LONG_QUOTED + 1},}}'"), "'…'"),
    (re.compile(rf'"[^"\n]{{{LONG_QUOTED + 1},}}"'), '"…"'),
    (re.compile(r"\b[A-Za-z][\w+.-]*://\S+"), "<url>"),
    # tried only where a token starts (the lookbehind): from inside one it would rescan it at every character
    (re.compile(r"(?<![\w.@~+=:-])(?:[A-Za-z]:)?[\w.@~+-]*(?:[/\\][\w.@~+=-]+)+[/\\]?"), "<path>"),
    (re.compile(r"\b0[xX][0-9a-fA-F]+\b"), "0x…"),
    (re.compile(r"\b(?=[0-9a-fA-F-]*[0-9])(?=[0-9a-fA-F-]*[a-fA-F])[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]{4,})*\b"), "<hex>"),
    (re.compile(r"\b(nc|nd|core|device|rank|cuda|neuron|xla|gpu|worker|pid)([:_-]?)\d+\b", re.IGNORECASE), r"\1\2N"),
    (re.compile(r"(?<=[A-Za-z])_\d+\b"), "_N"),
    (re.compile(r"(?<![A-Za-z_0-9])\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?"), "N"),
    (re.compile(r"\s+"), " "),
)


@dataclass(frozen=True)
class Cause:
    """What one FAIL's error text reduces to. `code` is the NCC_/NRT_ code, else the exception type, else
    None; `line` the masked primary error line; `docs` the Neuron documentation of the code, or None."""

    signature: str
    code: str | None
    summary: str
    docs: str | None
    line: str

    def as_dict(self) -> dict:
        """{signature, code, summary, docs}: the cause as the endpoints answer it."""
        return {"signature": self.signature, "code": self.code, "summary": self.summary, "docs": self.docs}


def clean_lines(text: object) -> list[str]:
    """Error text as its last `MAX_LINES` non-blank lines, each cut to `MAX_LINE` characters, control
    characters removed: a huge or hostile text costs no more than a normal traceback."""
    if not isinstance(text, str):
        return []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[-MAX_LINES:]
    text = _CONTROL.sub("", "\n".join(line[:MAX_LINE] for line in lines))  # one pass, not one per line
    return [line.rstrip() for line in text.split("\n") if line.strip()]


def mask(line: str) -> str:
    """A line with what changes from run to run replaced: long quoted values, URLs and paths, hex
    addresses and ids, core and device ids (`nc3` → `ncN`), numbered names (`forward_2` → `forward_N`),
    and every number (`69632`, `28.66`, line numbers) → `N`. Names with digits (`bf16`, `c10`) are kept."""
    out = line
    for pattern, replacement in _MASKS:
        out = pattern.sub(replacement, out)
    return out.strip()


def _raised_lines(lines: list[str]) -> tuple[str | None, str | None]:
    """(type, line) of the last line that names a raised exception; an error-like name wins over any
    other `Name: text` line, and a dotted name over a plain word (`Note: …` is not an exception)."""
    fallback = None
    for line in reversed(lines):
        found = _RAISED.match(line)
        if not found:
            continue
        name = found.group(1)
        if len(name) > MAX_NAME:  # no exception is named like that: a line of data
            continue
        if _ERROR_NAME.search(name.rsplit(".", 1)[-1]):
            return name, line
        if fallback is None and "." in name:
            fallback = (name, line)
    return fallback or (None, None)


def _coded_line(lines: list[str]) -> tuple[str | None, str | None]:
    """(code, line): the last NCC_/NRT_ code in the text, and the last line that carries it, cut to what
    failed. A runtime status line goes on with where it happened (graph, core, phase): it is cut to the
    exception and the status. A compiler line starts with a log prefix: it starts at the code."""
    for line in reversed(lines):
        ncc = _NCC.findall(line)
        named = [s for s in _NRT.findall(line) if s != "NRT_SUCCESS"]
        nrt = [s for s in named if s in runtime_statuses()] or named
        if not ncc and not nrt:
            continue
        if ncc:
            code = ncc[-1]
            rest = line[line.rindex(code) + len(code) :].lstrip("]): ")
            return code, f"{code}: {rest}" if rest else code
        code = nrt[-1]
        raised, _ = _raised_lines([line])
        return code, f"{raised.rsplit('.', 1)[-1]}: {code}" if raised else code
    return None, None


def cause_of(error: str | None) -> Cause:
    """The cause of one FAIL from its error text (None or blank: the cause "no error text"). Pure: the
    same text always gives the same cause, on any stack. Not cached here (a snapshot keeps its own)."""
    lines = clean_lines(error)
    if not lines:
        return Cause(_signature("", NO_ERROR_TEXT), None, NO_ERROR_TEXT, None, NO_ERROR_TEXT)
    code, line = _coded_line(lines) if _may_have_code(error) else (None, None)
    raised = None
    if code is None:
        raised, line = _raised_lines(lines)
        code = raised
    if line is None:  # no exception named (a crash, a killed process): the last line that is not a frame
        line = next((x for x in reversed(lines) if not x.lstrip().startswith("File ")), lines[-1])
    masked = mask(line)
    summary = masked
    if raised and "." in raised and line.startswith(raised):  # `torch._dynamo.exc.Unsupported: …` → `Unsupported: …`
        summary = mask(raised.rsplit(".", 1)[-1] + line[len(raised) :])
    status = _codes()["runtime"]["statuses"].get(code)
    if status is not None and summary.endswith(code or ""):
        summary += f" (status {status})"
    if len(summary) > MAX_SUMMARY:
        summary = summary[: MAX_SUMMARY - 1].rstrip() + "…"
    return Cause(_signature(code or "", masked), code, summary, docs_link(code), masked)


def _may_have_code(text: object) -> bool:
    """A cheap test before the line by line search: most tracebacks name no code at all."""
    return isinstance(text, str) and ("NCC_" in text or "NRT_" in text)


def _signature(code: str, line: str) -> str:
    digest = hashlib.sha256(f"{ALGORITHM}\n{code}\n{line}".encode()).hexdigest()
    return f"{ALGORITHM}-{digest[:16]}"


# ---- where the Neuron documentation describes a code -----------------------------------------------


@cache
def _codes() -> dict:
    return json.loads(CODES_FILE.read_text(encoding="utf-8"))


@cache
def runtime_statuses() -> frozenset[str]:
    """The runtime statuses of nrt_status.h."""
    return frozenset(_codes()["runtime"]["statuses"])


def docs_link(code: str | None) -> str | None:
    """The documentation page of an NCC_ code (the error-code index for a code without a page of its own)
    or of a known NRT_ status; None for anything else."""
    if not code:
        return None
    compiler, runtime = _codes()["compiler"], _codes()["runtime"]
    if _NCC.fullmatch(code):
        name = code.removeprefix(compiler["prefix"])
        return compiler["page"].format(name=name) if name in compiler["documented"] else compiler["index"]
    if code in runtime_statuses():
        return runtime["page"]
    return None


# ---- causes over a snapshot, one stack at a time -------------------------------------------------------


@dataclass(frozen=True)
class StackCauses:
    """Every FAIL of one stack in exactly one cause: `models[i]` are the models `causes[i]` blocks (in
    name order), `by_model` each failed model's cause index."""

    causes: tuple[Cause, ...]
    models: tuple[tuple[str, ...], ...]
    by_model: dict[str, int]

    def __sizeof__(self) -> int:
        return 120 * len(self.by_model) + 400 * len(self.causes)


def stack_causes(snapshot: Snapshot, stack: Stack) -> StackCauses:
    """The causes of a stack's FAILs, worked out once per distinct error text on first use and kept with the
    snapshot. One stack at a time: a failed model's panel pays for its own stack only, never for all."""
    return snapshot.memo(("failure-causes", ALGORITHM, stack.ref), lambda: _stack_causes(snapshot, stack))  # type: ignore[return-value]


def _stack_causes(snapshot: Snapshot, stack: Stack) -> StackCauses:
    positions = snapshot.stack_positions(stack)
    failed = positions[snapshot.kind[positions] == FAIL]
    if not len(failed):
        return StackCauses((), (), {})
    text_codes, texts = _error_texts(snapshot, failed)
    known = _text_causes(snapshot)  # a text on several stacks is reduced once
    index: dict[str, int] = {}
    causes: list[Cause] = []
    distinct = np.unique(text_codes)
    per_text = np.zeros(len(distinct), dtype=np.int64)
    for i, code in enumerate(distinct.tolist()):
        cause = known.get(code)
        if cause is None:
            text = texts[code] if code >= 0 else None
            cause = known[code] = cause_of(text if isinstance(text, str) else None)
        per_text[i] = index.setdefault(cause.signature, len(causes))
        if per_text[i] == len(causes):
            causes.append(cause)
    groups: list[list[str]] = [[] for _ in causes]
    ids = snapshot.rows["model_id"].to_numpy(dtype=object)[failed]
    for model_id, cause in zip(ids, per_text[np.searchsorted(distinct, text_codes)].tolist()):
        groups[cause].append(str(model_id))
    models = tuple(tuple(sorted(g, key=lambda m: (m.casefold(), m))) for g in groups)
    by_model = {m: i for i, group in enumerate(models) for m in group}
    return StackCauses(tuple(causes), models, by_model)


def _error_texts(snapshot: Snapshot, rows: np.ndarray) -> tuple[np.ndarray, pd.Index]:
    """(a code per row, the texts the codes index): the snapshot-wide dictionary codes of the error column
    (-1: no text), so that codes agree across stacks."""
    column = snapshot.rows["error"]
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy()[rows].astype(np.int64), column.cat.categories
    codes, texts = pd.factorize(column.iloc[rows], use_na_sentinel=True)  # not from the loader: no shared codes
    return np.asarray(codes, dtype=np.int64), texts


def _text_causes(snapshot: Snapshot) -> dict[int, Cause]:
    """The snapshot's reductions so far, by error text code (a cache: any thread may add the same entry).
    It grows to one small entry per distinct error text, which the memo's byte bound weighed when empty."""
    column = snapshot.rows["error"]
    if not isinstance(column.dtype, pd.CategoricalDtype):
        return {}
    return snapshot.memo(("failure-text-causes", ALGORITHM), dict)  # type: ignore[return-value]


def _first_seen(snapshot: Snapshot, library: str) -> dict[str, Stack]:
    """signature → the oldest stack of `library` where it blocks a model."""

    def compute() -> dict[str, Stack]:
        seen: dict[str, Stack] = {}
        for s in snapshot.stacks:  # newest first: the last stack written is the oldest
            if s.library == library:
                for cause in stack_causes(snapshot, s).causes:
                    seen[cause.signature] = s
        return seen

    return snapshot.memo(("failure-first-seen", ALGORITHM, library), compute)  # type: ignore[return-value]


def _passing(snapshot: Snapshot, stack: Stack) -> set[str]:
    positions = snapshot.stack_positions(stack)
    passed = positions[snapshot.kind[positions] == PASS]
    return {str(m) for m in snapshot.rows["model_id"].to_numpy(dtype=object)[passed]}


def failures(snapshot: Snapshot, stack: Stack | None) -> dict:
    """The causes that block models on `stack`: {stack, failed, causes}, causes ordered by how many models
    they block (then by code). Each cause is {signature, code, summary, docs, count, models, first_seen,
    fixed_in}: `first_seen` the oldest stack of the same library where it blocks a model, `fixed_in` the
    newer stacks of that library where some of its models pass ({neuronx_cc, library, library_version,
    models}, newest first). Memoised per snapshot: treat it as read-only."""
    if stack is None:
        return {"stack": None, "failed": 0, "causes": []}
    return snapshot.memo(("failures", ALGORITHM, stack.ref), lambda: _failures(snapshot, stack))  # type: ignore[return-value]


def _failures(snapshot: Snapshot, stack: Stack) -> dict:
    found = stack_causes(snapshot, stack)
    first_seen = _first_seen(snapshot, stack.library)
    same_library = [s for s in snapshot.stacks if s.library == stack.library]
    newer = same_library[: [s.ref for s in same_library].index(stack.ref)]
    passing = {s.ref: _passing(snapshot, s) for s in newer}
    answer = []
    for cause, models in zip(found.causes, found.models):
        fixed = [
            {**s.ref.as_dict(), "models": [m for m in models if m in passing[s.ref]]}
            for s in newer
            if passing[s.ref].intersection(models)
        ]
        seen = first_seen.get(cause.signature, stack)
        answer.append(
            {**cause.as_dict(), "count": len(models), "models": list(models), "first_seen": seen.ref.as_dict(),
             "fixed_in": fixed}
        )  # fmt: skip
    answer.sort(key=lambda c: (-c["count"], c["code"] is None, c["code"] or "", c["summary"]))
    return {"stack": stack.as_dict(), "failed": sum(c["count"] for c in answer), "causes": answer}


def cause_on_stack(snapshot: Snapshot, stack: Stack, model_id: str) -> dict | None:
    """The cause of a model's FAIL on `stack` with `shared_with` (the other models it blocks there), or None
    when the model did not fail there."""
    found = stack_causes(snapshot, stack)
    index = found.by_model.get(model_id)
    if index is None:
        return None
    shared = [m for m in found.models[index] if m != model_id]
    return {**found.causes[index].as_dict(), "shared_with": shared}


def causes_of(snapshot: Snapshot, stack: Stack, model_ids: Iterable[str]) -> dict[str, dict]:
    """model_id → {signature, code, summary, docs} for those of `model_ids` that FAIL on `stack`."""
    found = stack_causes(snapshot, stack)
    return {m: found.causes[found.by_model[m]].as_dict() for m in model_ids if m in found.by_model}


def across_stacks(snapshot: Snapshot, top: int = 8) -> dict:
    """Models blocked by each of the `top` causes (by models blocked over all stacks) on every stack:
    {stacks: [stack, ...] oldest first, causes: [{signature, code, summary, docs, counts: [int per stack]}]}."""

    def compute() -> dict:
        stacks = list(reversed(snapshot.stacks))
        causes: dict[str, Cause] = {}
        counts: dict[str, list[int]] = {}
        for j, s in enumerate(stacks):
            found = stack_causes(snapshot, s)
            for cause, models in zip(found.causes, found.models):
                causes.setdefault(cause.signature, cause)
                counts.setdefault(cause.signature, [0] * len(stacks))[j] = len(models)
        order = sorted(counts, key=lambda sig: (-sum(counts[sig]), sig))[:top]
        return {
            "stacks": [s.ref.as_dict() for s in stacks],
            "causes": [{**causes[sig].as_dict(), "counts": counts[sig]} for sig in order],
        }

    return snapshot.memo(("failures-across", ALGORITHM, top), compute)  # type: ignore[return-value]
