"""A failed model's bug report: a new-issue address on aws-neuron/aws-neuron-sdk, pre-filled with what the
SDK's bug template asks for (model, instance, pinned packages, a repro, whether it is a regression, logs).

The whole address stays within `REPORT_URL` bytes (browsers and GitHub refuse longer ones): the error's last
lines give way first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote, urlencode

from components.domain.columns import STACK_PACKAGES
from components.domain.results import FAIL, PASS, generates_text
from components.domain.stacks import StackRef, library_name
from components.domain.versions import short_version
from components.queries import failures, formatting, links
from components.queries.answers import HistoryEntry, LookupAnswer, ModelCause
from components.runtime import settings
from components.sources.snapshot import Snapshot, Stack

NEW_ISSUE = "https://github.com/aws-neuron/aws-neuron-sdk/issues/new"


def deep_link(model_id: str, stack: Stack, base: str | None) -> str | None:
    """The absolute address of the model's panel on `stack`, or None without a base address."""
    if not base:
        return None
    return f"{base}/?{links.model_on_stack(model_id, stack)}"


def last_pass_before(history: list[HistoryEntry], stack: Stack) -> HistoryEntry | None:
    """The newest entry of `history` (newest first) that passed on a stack older than `stack`."""
    refs = [StackRef.of(e) for e in history]
    if stack.ref not in refs:
        return None
    return next((e for e in history[refs.index(stack.ref) + 1 :] if e.get("kind") == PASS), None)


def fail_fields(
    snapshot: Snapshot, stack: Stack, model_id: str, answer: LookupAnswer, base: str | None = None
) -> LookupAnswer:
    """`cause` and `report_url` for /lookup of a model that FAILs on `stack` (nothing for any other result).
    `answer` is the lookup's answer (row, install_command, instance, history); `base` the app's address."""
    if answer.get("kind") != FAIL:
        return {}
    cause = failures.cause_on_stack(snapshot, stack, model_id)
    if cause is None:
        return {}
    last_pass = last_pass_before(answer.get("history") or [], stack)
    url = report_url(answer, cause, last_pass, deep_link(model_id, stack, base))
    return {"cause": cause, "report_url": url}


def _fence(text: str) -> str:
    """A Markdown code fence longer than any run of backticks in `text`: the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _block(text: str) -> str:
    fence = _fence(text)
    return f"{fence}\n{text}\n{fence}"


def report_url(answer: LookupAnswer, cause: ModelCause, last_pass: HistoryEntry | None, link: str | None) -> str:
    """The new-issue address, title and body filled in, at most `REPORT_URL` bytes long."""
    model_id = str(answer.get("model_id") or "")
    what = cause.get("code") or cause.get("summary") or "FAIL"
    title = f"{model_id} fails on neuronx-cc {short_version(str(answer.get('neuronx_cc') or ''))}: {what}"
    if len(title) > settings.REPORT_TITLE.value:
        title = title[: settings.REPORT_TITLE.value - 1] + "…"
    lines = [
        line[: settings.REPORT_ERROR_LINE.value] for line in str(answer.get("error") or "").splitlines() if line.strip()
    ]
    lines = lines[-settings.REPORT_ERROR_LINES.value :]
    while True:
        url = f"{NEW_ISSUE}?{urlencode({'title': title, 'body': _body(answer, cause, last_pass, link, lines)}, quote_via=quote)}"
        if len(url.encode()) <= settings.REPORT_URL.value or not lines:
            break
        lines = lines[max(1, len(lines) // 4) :]  # the oldest lines go first: the end says what broke
    if (
        len(url.encode()) > settings.REPORT_URL.value
    ):  # still too long without any error line (huge values): cut the body
        body = _body(answer, cause, last_pass, link, [])
        while len(url.encode()) > settings.REPORT_URL.value:
            body = body[: int(len(body) * 0.8)]
            url = f"{NEW_ISSUE}?{urlencode({'title': title, 'body': body + ' …'}, quote_via=quote)}"
    return url


def _body(
    answer: LookupAnswer, cause: ModelCause, last_pass: HistoryEntry | None, link: str | None, error_lines: list[str]
) -> str:
    model_id = str(answer.get("model_id") or "")
    fields: Mapping[str, object] = answer  # read by column name
    pins = [f"{package}=={fields[column]}" for column, package in STACK_PACKAGES if fields.get(column)]
    pins += [f"{name}: {fields[key]}" for key, name in (("python", "Python"), ("neuron_driver", "Neuron driver"))
             if fields.get(key)]  # fmt: skip
    tp = answer.get("tp")
    shared = cause.get("shared_with") or []
    parts = [
        "### Describe the bug",
        f"`{model_id}` fails with TorchNeuron (torch-neuronx) on {StackRef.of(answer).long_label}: {cause.get('example')}",
        "### Model Name",
        f"{model_id} ({links.model_url(model_id)})",
        "### Describe the workload type",
        (
            "Inference: the model loaded with its library's own code and 32 tokens generated"
            if generates_text(answer.get("library"))
            else f"Inference: the model loaded and run with {library_name(answer.get('library'))}'s own code"
        )
        + formatting.sharding(tp)
        + " (the torch-neuronx model support harness).",
        "### Instance Type",
        str(answer.get("instance") or "trn2 (instance not recorded)"),
        "### Release version",
        _block("\n".join(pins) or "(not recorded)"),
        "### Reproduction Steps",
        _block(str(answer.get("install_command") or "")) if answer.get("install_command") else "",
        f"Then run the harness's `run.py` for this model on this stack: {link}" if link else "",
        "### Regression Issue",
        f"- [x] Regression: it last passed on {StackRef.of(last_pass).long_label}."
        if last_pass
        else "- [ ] Not a known regression.",
        "### Logs/Context/Additional Information",
        f"Cause: `{cause.get('code') or 'no exception named'}` (signature `{cause.get('signature')}`)"
        + (f"; docs: {cause['docs']}" if cause.get("docs") else "")
        + (f". {len(shared)} other model(s) on this stack fail the same way." if shared else "."),
        _block("\n".join(error_lines)) if error_lines else "",
    ]
    return "\n\n".join(p for p in parts if p)
