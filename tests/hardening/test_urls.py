"""Deep links with unknown keys and hostile or huge values, in real Chromium: the page opens with the
defaults, shows no error and runs nothing. The named endpoints get the same values."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from gradio_client.exceptions import AppError
from playwright.sync_api import Page, expect

TIMEOUT = 20_000
PARAMS = ("model", "neuronx_cc", "transformers", "view", "task", "q")
HOSTILE = (
    "<script>window.__pwned='{p}'</script><img src=x onerror=\"window.__pwned='{p}';alert('{p}')\">"
    '"><svg onload=alert(1)>javascript:alert(1)//../../etc/passwd\u202e\u0000'
)
HUGE = 5_000  # characters per value: six of them make a URL of about 60 KB once encoded


def hostile(param: str) -> str:
    return HOSTILE.format(p=param) + "X" * HUGE


@pytest.fixture
def guarded(page: Page, sample_app):
    """Open a link; fail on any dialog, error toast or payload that ran."""
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.set_default_timeout(TIMEOUT)

    def open_(query: str) -> Page:
        page.goto(f"{sample_app.url}/?{query}")
        expect(page.locator("#summary")).to_contain_text("models")
        expect(page.locator("#link textarea, #link input").first).not_to_have_value("")  # the load chain finished
        return page

    yield open_
    page.wait_for_load_state("networkidle")  # whatever the page was going to run has run
    assert page.evaluate("() => window.__pwned") is None
    assert dialogs == []
    assert page.locator(".toast-body").count() == 0  # no error toast


def newest_stack(client) -> tuple[str, str]:
    newest = client.predict(api_name="/stacks")[0]
    return newest["neuronx_cc"], newest["library_version"]


def assert_defaults(page: Page, client, *, text: str = "", stack_named: bool = False) -> None:
    """The default state; `stack_named`: the link named a stack the data lacks, which falls back to the newest
    stack (with a notice), where a link naming none covers every library."""
    expect(page.locator("#view input[value=selected]")).to_be_checked()
    expect(page.locator("#task input").first).to_have_value("All tasks")
    if stack_named:
        cc, lv = newest_stack(client)
        expect(page.locator("#stack-cc input").first).to_have_value(re.compile("^" + re.escape(cc.split("+")[0])))
        expect(page.locator("#stack-tf input").first).to_have_value(lv)
    else:  # no stack named: every library's newest, no compiler or version picked
        expect(page.locator("#stack-lib input").first).to_have_value("All libraries")
        expect(page.locator("#stack-cc input").first).to_have_value("Each library's newest")
        expect(page.locator("#stack-tf input").first).to_have_value("Each library's newest")
    expect(page.locator("#search textarea, #search input").first).to_have_value(text)
    expect(page.locator("#details-summary")).to_contain_text("Open a model")  # a guide, no empty boxes
    expect(page.locator("#install")).to_be_hidden()
    link = page.locator("#link textarea, #link input").first.input_value()
    for name in ("view", "task", "model"):
        assert f"{name}=" not in link
    assert ("q=" in link) == bool(text)  # only the search carries the text back, as text


@pytest.mark.parametrize("param", [p for p in PARAMS if p != "q"])
def test_a_hostile_huge_value_in_one_parameter_opens_the_defaults(guarded, client, param):
    page = guarded(urlencode({param: hostile(param)}))
    assert_defaults(page, client, stack_named=param in ("neuronx_cc", "transformers"))


def test_a_hostile_search_is_searched_for_as_text(guarded, client):
    value = hostile("q")
    page = guarded(urlencode({"q": value}))
    shown = " ".join(value.split())[:200]
    assert_defaults(page, client, text=shown)
    expect(page.locator("#summary")).to_contain_text("No models match")


def test_every_parameter_hostile_at_once(guarded, client):
    page = guarded(urlencode({p: hostile(p) for p in PARAMS if p != "q"}))
    assert_defaults(page, client, stack_named=True)


def test_unknown_keys_repeated_keys_and_broken_encoding_are_ignored(guarded, client):
    query = (
        "__proto__[polluted]=1&constructor[prototype][x]=1&foo=%3Cscript%3Ealert(1)%3C/script%3E"
        "&view=%E0%A4%A&view=%zz&task=%&model=%FF%FE&neuronx_cc=%00&transformers=%C0%AF&unknown"
    )
    page = guarded(query)
    assert_defaults(page, client, stack_named=True)  # a NUL and broken UTF-8 as versions: a stack the data lacks
    expect(page.locator("#results [role=gridcell]").first).to_be_visible()
    assert page.evaluate("() => ({}).polluted === undefined && ({}).x === undefined")


def test_the_api_takes_the_same_values_with_a_short_clear_error(client):
    cc, lv = newest_stack(client)
    value = hostile("api") * 20  # about 100 KB
    for call, says in (  # a value an endpoint does not take is a short, clear no: never the default's answer
        (lambda: client.predict(query="", view=value, api_name="/search"), "parameter 'view' is "),
        (lambda: client.predict(query="", task=value, api_name="/search"), "parameter 'task' is "),
        (lambda: client.predict(model_id=value, api_name="/lookup"), "cannot be a Hub model id"),
        (lambda: client.predict(model_id=value, neuronx_cc=value, library_version=value, api_name="/lookup"),
         "cannot be a Hub model id"),
        # a stack not in the data: never another stack's answer
        (lambda: client.predict(query="", neuronx_cc=value, library_version=value, api_name="/search"),
         "No tested stack matches"),
        (lambda: client.predict(value, value, value, value, api_name="/compare"), "No tested stack matches"),
    ):  # fmt: skip
        with pytest.raises(AppError, match=re.escape(says)) as raised:
            call()
        assert len(str(raised.value)) < 2000
    assert client.predict(query=value, api_name="/search") == []
    rows = client.predict(query="", api_name="/search")  # no stack named: each library's newest stack
    newest: dict[str, tuple[str, str]] = {}
    for stack in client.predict(api_name="/stacks"):  # newest first
        newest.setdefault(stack["library"], (stack["neuronx_cc"], stack["library_version"]))
    assert (cc, lv) in newest.values()
    assert rows and {(r["neuronx_cc"], r["library_version"]) for r in rows} == set(newest.values())
    answer = client.predict(model_id="nobody/nothing", neuronx_cc=value, library_version=value, api_name="/lookup")
    assert answer["result"] == "not tested" and answer["unknown_stack"].startswith("No tested stack matches")
    assert len(answer["unknown_stack"]) < 2000
