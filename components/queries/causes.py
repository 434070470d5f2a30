"""A FAIL's error text reduced to what failed: its cause, its signature, and where the Neuron documentation
describes it (`cause_of`, pure; `failures.py` groups the causes of a stack).

A cause is the error code where the text has one (`NCC_…` compiler codes, `NRT_…` runtime statuses), else
the exception type, plus the primary error line with what changes from run to run masked: numbers, sizes,
core and device ids, hex addresses, paths, line numbers and long quoted values. Its `signature` is a hash of
that reduction under a versioned algorithm (`ALGORITHM`), so the same failure on another stack has the same
signature. Change anything in the reduction and the version must change with it: stored signatures from an
older version then stop matching, rather than silently meaning something else.

The masked line is the cause's identity, not its wording: what a person reads is `example`, the same line
as it was written (`shape '[1, -1, 32, 128]'`, not `shape '[N, -N, N, N]'`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from components.queries.answers import CauseAnswer
from components.runtime import settings

ALGORITHM = "v1"
CODES_FILE = Path(__file__).resolve().parents[2] / "data" / "neuron_error_codes.json"
NO_ERROR_TEXT = "no error text"
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
    None; `line` the masked primary error line; `summary` its short form; `example` the summary's line as
    this text wrote it, unmasked (what people read); `docs` the Neuron documentation of the code, or None."""

    signature: str
    code: str | None
    summary: str
    docs: str | None
    line: str
    example: str = field(compare=False)  # one text's wording: not part of what the cause is

    def as_dict(self) -> CauseAnswer:
        """{signature, code, summary, example, docs}: the cause as the endpoints answer it."""
        return {
            "signature": self.signature,
            "code": self.code,
            "summary": self.summary,
            "example": self.example,
            "docs": self.docs,
        }


def clean_lines(text: object) -> list[str]:
    """Error text as its last `ERROR_LINES_READ` non-blank lines, each cut to `ERROR_LINE_READ` characters, control
    characters removed: a huge or hostile text costs no more than a normal traceback."""
    if not isinstance(text, str):
        return []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[-settings.ERROR_LINES_READ.value :]
    text = _CONTROL.sub(
        "", "\n".join(line[: settings.ERROR_LINE_READ.value] for line in lines)
    )  # one pass, not one per line
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
        if len(name) > settings.EXCEPTION_NAME.value:  # no exception is named like that: a line of data
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
        return Cause(_signature("", NO_ERROR_TEXT), None, NO_ERROR_TEXT, None, NO_ERROR_TEXT, NO_ERROR_TEXT)
    code, line = _coded_line(lines) if _may_have_code(error) else (None, None)
    raised = None
    if code is None:
        raised, line = _raised_lines(lines)
        code = raised
    if line is None:  # no exception named (a crash, a killed process): the last line that is not a frame
        line = next((x for x in reversed(lines) if not x.lstrip().startswith("File ")), lines[-1])
    masked = mask(line)
    summary, example = masked, _spaced(line)
    if raised and "." in raised and line.startswith(raised):  # `torch._dynamo.exc.Unsupported: …` → `Unsupported: …`
        short = raised.rsplit(".", 1)[-1] + line[len(raised) :]
        summary, example = mask(short), _spaced(short)
    status = _codes()["runtime"]["statuses"].get(code)
    if status is not None and summary.endswith(code or ""):
        summary += f" (status {status})"
        example += f" (status {status})" if example.endswith(code or "") else ""
    return Cause(_signature(code or "", masked), code, _cut(summary), docs_link(code), masked, _cut(example))


def _spaced(line: str) -> str:
    """A line with its runs of whitespace as one space, as `mask` leaves them."""
    return " ".join(line.split())


def _cut(text: str) -> str:
    return text[: settings.CAUSE_SUMMARY.value - 1].rstrip() + "…" if len(text) > settings.CAUSE_SUMMARY.value else text


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
