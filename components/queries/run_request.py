"""Asking for a test: for a model nobody ran on a stack, a request to post in the dataset's Hub discussions.

The text names the model, its task, architecture and size from its Hub record, and the evidence the app
found; the address opens a new discussion with the title and the text filled in (the Hub reads `title`
and `description` from a `discussions/new` link).
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from components.domain.stacks import StackRef
from components.queries.answers import LookupAnswer, RequestTest
from components.queries.formatting import cores_noted, cores_phrase, parameter_count
from components.queries.links import HUB, model_url
from components.runtime import settings
from components.sources.dataset import HUB_REPO
from components.sources.records import ModelRecord, hub_id

DISCUSSIONS = f"{HUB}/datasets/{HUB_REPO}/discussions"


def evidence_lines(answer: LookupAnswer) -> list[str]:
    """What the app found about an untested model, one line each, as plain text."""
    lines = []
    found = answer.get("evidence")
    base = found.get("base_model") if found else None
    if base:
        lines.append(f"Base model {base['model_id']}: {base.get('result') or 'unknown'}{cores_phrase(base.get('tp'))}.")
    else:
        lines.append("Base model: none with a run on this stack is known.")
    arch = found.get("architecture") if found else None
    if arch and not arch["tested"]:
        lines.append(f"Architecture {arch['name']}: no model of it was run on this stack.")
    elif arch:
        lines.append(f"Architecture {arch['name']}: {arch['passed']} of {arch['tested']} tested models pass.")
    else:
        lines.append("Architecture: unknown.")
    expectation = answer.get("expectation")
    if isinstance(expectation, dict) and expectation.get("verdict"):
        lines.append(f"Expectation: {expectation['verdict']} ({expectation.get('reason') or 'no reason given'}).")
    if answer.get("suggested_from"):
        lines.append(
            f"An untested run.py can be adapted from {answer['suggested_from']}'s "
            f"on {cores_noted(answer.get('suggested_tp'))}."
        )
    return lines


def request_test(answer: LookupAnswer, record: ModelRecord | None) -> RequestTest | None:
    """`{url, title, text}` asking for a test of the `not tested` model of a lookup `answer` on its stack;
    None when its id is not a Hub id. `record` is the model's Hub record (None when unknown)."""
    model = hub_id(answer.get("model_id"))
    if model is None:
        return None
    title = f"Test request: {model}"
    stack = StackRef.of(answer).long_label if answer.get("neuronx_cc") else ""
    lines = [
        f"Please run {model} through the torch-neuronx support harness.",
        "",
        f"- Model: {model_url(model)}",
        f"- Task: {(record.task if record else None) or answer.get('task') or 'unknown'}",
        f"- Architecture: {(record.architecture if record else None) or answer.get('architecture') or 'unknown'}",
        f"- Parameters: {parameter_count(record.num_parameters if record else None)}",
    ]
    if stack:
        lines.append(f"- Stack: {stack}")
    if answer.get("gated"):
        lines.append(f"- Gated on the Hub ({answer['gated']}): its terms must be accepted first.")
    if "evidence" in answer:
        lines += ["", "What the app found on that stack:", *(f"- {line}" for line in evidence_lines(answer))]
    text = "\n".join(lines)
    url = f"{DISCUSSIONS}/new?" + urlencode({"title": title, "description": text}, quote_via=quote)
    if len(url) > settings.RUN_REQUEST_URL.value:
        url = f"{DISCUSSIONS}/new?" + urlencode({"title": title}, quote_via=quote)
    return {"url": url, "title": title, "text": text}
