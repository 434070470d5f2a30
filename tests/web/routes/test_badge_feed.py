"""`GET /badge` and `GET /feed.atom` over HTTP (a Starlette TestClient on the app's own routes), on data made here."""

from datetime import UTC, datetime
from urllib.parse import parse_qs, unquote, urlsplit

import feedparser
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from components.sources.dataset import load
from components.web.html import follow, markup
from components.web.routes import badge_feed
from tests.helpers import NEW_CC, OLD_CC, row, served, write


@pytest.fixture
def snapshot(tmp_path):
    def at(day):
        return datetime(2026, 11, day, tzinfo=UTC)

    write(tmp_path / "old.parquet", [
        row("org/regresses", cc=OLD_CC, lib_version="4.50.0", tested_at=at(1)),
        row("org/fixed", cc=OLD_CC, lib_version="4.50.0", result="FAIL", tested_at=at(1)),
        row("org/steady", cc=OLD_CC, lib_version="4.50.0", tested_at=at(1)),
    ])  # fmt: skip
    write(tmp_path / "new.parquet", [
        row("org/regresses", cc=NEW_CC, result="FAIL", error="boom", tested_at=at(9)),
        row("org/fixed", cc=NEW_CC, tested_at=at(8)),
        row("org/steady", cc=NEW_CC, tested_at=at(9)),
        row("org/excluded", cc=NEW_CC, result="EXCLUDED", exclusion="too large", tested_at=at(9)),
    ])  # fmt: skip
    return load(tmp_path)


@pytest.fixture
def feed_http(snapshot):
    return TestClient(Starlette(routes=badge_feed.routes(served(snapshot))))


def test_badge_schema_for_pass_fail_and_untested(feed_http):
    answers = {m: feed_http.get("/badge", params={"model": m}) for m in ("org/fixed", "org/regresses", "org/untested")}
    for answer in answers.values():
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
        max_age = int(answer.headers["cache-control"].split("max-age=")[1].split(",")[0])
        assert max_age >= 300
        body = answer.json()
        assert body["schemaVersion"] == 1 and body["label"] == "Trainium"
        assert set(body) >= {"schemaVersion", "label", "message", "color"}
    assert answers["org/fixed"].json()["message"] == "PASS · neuronx-cc 2.28.7631.0"
    assert answers["org/fixed"].json()["color"] == "green"
    assert answers["org/regresses"].json()["color"] == "red"
    assert answers["org/untested"].json()["message"].startswith("not tested")
    assert answers["org/untested"].json()["color"] == "lightgrey"
    assert feed_http.get("/badge", params={"model": "org/excluded"}).json()["color"] == "lightgrey"


def test_badge_pinned_to_a_stack(feed_http):
    old = {"model": "org/regresses", "neuronx_cc": OLD_CC, "transformers": "4.50.0"}
    assert feed_http.get("/badge", params=old).json()["message"] == "PASS · neuronx-cc 2.9.1.0"
    assert (
        feed_http.get("/badge", params={"model": "org/regresses", "neuronx_cc": "2.9.1.0"}).json()["color"] == "green"
    )
    library = {"model": "org/regresses", "library": "transformers", "library_version": "4.50.0"}
    assert feed_http.get("/badge", params=library).json()["color"] == "green"
    unknown = feed_http.get("/badge", params={"model": "org/regresses", "neuronx_cc": "2.99.0"}).json()
    assert unknown["message"] == "unknown stack" and unknown["color"] == "lightgrey"


@pytest.mark.parametrize("params", [{}, {"model": ""}, {"model": "a/b/c"}, {"model": "<script>alert(1)</script>"}])
def test_badge_refuses_a_malformed_id(feed_http, params):
    answer = feed_http.get("/badge", params=params)
    assert answer.status_code == 400 and "Hub model id" in answer.json()["error"]


def test_the_feed_parses_without_complaint_and_holds_the_regression(feed_http):
    answer = feed_http.get("/feed.atom")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/atom+xml")
    parsed = feedparser.parse(answer.content)
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    regression = next(e for e in parsed.entries if "org/regresses" in e.title and "regressed" in e.title)
    link = urlsplit(regression.link)
    assert link.scheme == "http" and link.netloc == "testserver"
    assert parse_qs(link.query)["model"] == ["org/regresses"]
    assert regression.updated == "2026-11-09T00:00:00Z"
    assert [e.title.split()[0] for e in parsed.entries] == ["org/regresses", "org/fixed"]  # newest first


def test_feed_ids_are_unique_and_stable_and_unchanged_models_have_none(feed_http):
    first, second = (feedparser.parse(feed_http.get("/feed.atom").content) for _ in range(2))
    ids = [e.id for e in first.entries]
    assert len(ids) == len(set(ids)) and ids == [e.id for e in second.entries]
    assert not any("org/steady" in e.title or "org/steady" in unquote(e.id) for e in first.entries)


def test_a_models_own_feed_holds_only_that_model(feed_http):
    parsed = feedparser.parse(feed_http.get("/feed.atom", params={"model": "org/fixed"}).content)
    assert not parsed.bozo and [e.title.split()[0] for e in parsed.entries] == ["org/fixed"]
    assert not feedparser.parse(feed_http.get("/feed.atom", params={"model": "org/steady"}).content).entries
    assert feed_http.get("/feed.atom", params={"model": "a/b/c"}).status_code == 400
    everyone = feedparser.parse(feed_http.get("/feed.atom").content)
    assert [e.id for e in feedparser.parse(feed_http.get("/feed.atom?model=").content).entries] == [
        e.id for e in everyone.entries
    ]


def test_links_never_follow_a_forwarding_header(feed_http):
    """Nothing validates X-Forwarded-Host or -Proto: the links come from the Host the server checked."""
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example, inner.local"}
    parsed = feedparser.parse(feed_http.get("/feed.atom", headers=headers).content)
    assert parsed.entries and all(e.link.startswith("http://testserver/?") for e in parsed.entries)
    hostile = {"Host": 'evil"><script>'}
    parsed = feedparser.parse(feed_http.get("/feed.atom", headers=hostile).content)
    assert all(e.link.startswith("http://localhost/?") for e in parsed.entries)
    assert feed_http.get("/badge?model=" + "x" * 3000).status_code == 414


def test_the_badge_markdown_links_the_badge_and_the_model():
    markdown = follow.badge_markdown("org/model", "transformers", "https://owner-space.hf.space/")
    image, link = markdown.split("](", 1)[1].split(")", 1)[0], markdown.rsplit("(", 1)[1].rstrip(")")
    assert (
        image
        == "https://img.shields.io/endpoint?url=https%3A%2F%2Fowner-space.hf.space%2Fbadge%3Fmodel%3Dorg%252Fmodel"
    )
    assert link == "https://owner-space.hf.space/?model=org%2Fmodel"
    assert markdown.startswith("[![Trainium](")
    diffusers = follow.badge_markdown("org/sd", "diffusers", "https://x.hf.space")
    assert "library%3Ddiffusers" in diffusers and diffusers.endswith("/?model=org%2Fsd&library=diffusers)")
    relative = follow.badge_markdown("org/model")
    assert "endpoint?url=.%2Fbadge%3F" in relative and relative.endswith("](./?model=org%2Fmodel)")


def test_the_panel_block_escapes_the_model_and_offers_its_feed():
    html = str(follow.panel_html({"model_id": "org/model", "history": [{"library": "transformers"}]}))
    assert 'href="feed.atom?model=org%2Fmodel"' in html and 'id="model-feed"' in html
    assert '<pre class="copyable" id="badge-markdown" data-relative>' in html and 'data-copy="badge-markdown"' in html
    assert str(follow.panel_html({"model_id": "<img src=x>"})) == ""
    block = str(markup.copy_block("x", "<script>alert(1)</script>", "Copy"))
    assert "<script>" not in block and "&lt;script&gt;" in block


# ---- what the model panel offers -------------------------------------------------------------


@pytest.fixture
def tab(libraries):
    from components.web.gradio.pages.models import ModelsPage

    snapshot, rankings = libraries
    return ModelsPage(served(snapshot, rankings))


def opened(tab, model_id, **params):
    from tests.helpers import page_opened

    return page_opened(tab, {"model": model_id, **params})


def markdown_in(html) -> str:
    import html as html_text

    return html_text.unescape(str(html).split('id="badge-markdown" data-relative>')[1].split("</pre>")[0])


def test_a_models_panel_offers_its_badge_and_its_feed(tab):
    panel = opened(tab, "stabilityai/sd-turbo")
    assert markdown_in(panel["history"]) == follow.badge_markdown("stabilityai/sd-turbo", "diffusers")
    assert 'href="feed.atom?model=stabilityai%2Fsd-turbo"' in str(panel["history"])
    on_its_stack = opened(tab, "stabilityai/sd-turbo", library="diffusers")
    assert markdown_in(on_its_stack["history"]) == markdown_in(panel["history"])  # whatever stack is shown
    assert 'id="request-test"' not in str(on_its_stack["details"])  # it was tested there
    assert "badge-markdown" not in str(opened_without_a_model(tab)["history"])  # no model open, no badge


def test_an_untested_models_panel_offers_to_ask_for_a_test(tab):
    import html as html_text

    panel = opened(tab, "someone/new-model-7B")
    details = str(panel["details"])
    href = html_text.unescape(details.split('id="request-test" href="')[1].split('"')[0])
    parts = urlsplit(href)
    assert parts.netloc == "huggingface.co"
    assert parts.path == "/datasets/aws-neuron/torch-neuronx-model-support/discussions/new"
    query = parse_qs(parts.query)
    assert query["title"] == ["Test request: someone/new-model-7B"]
    text = html_text.unescape(details.split('id="request-test-text">')[1].split("</pre>")[0])
    assert query["description"] == [text] and "someone/new-model-7B" in text and "Parameters:" in text
    assert 'data-copy="request-test-text"' in details


def test_off_a_space_feed_links_come_from_the_origin_and_the_answer_varies_on_it(feed_http, monkeypatch):
    monkeypatch.delenv("SPACE_HOST", raising=False)
    answer = feed_http.get("/feed.atom", headers={"Host": "evil.example"})
    assert all(e.link.startswith("http://evil.example/?") for e in feedparser.parse(answer.content).entries)
    assert answer.headers["vary"] == "Host, X-Forwarded-Proto"  # the scheme: a trusted proxy's header


def test_on_a_space_feed_links_come_from_space_host_whatever_the_headers_say(feed_http, monkeypatch):
    monkeypatch.setenv("SPACE_HOST", "owner-space.hf.space")
    headers = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
    answer = feed_http.get("/feed.atom", headers=headers)
    entries = feedparser.parse(answer.content).entries
    assert entries and all(e.link.startswith("https://owner-space.hf.space/?") for e in entries)
    assert "vary" not in answer.headers and answer.headers["cache-control"].startswith("public")


def opened_without_a_model(tab):
    from tests.helpers import page_opened

    return page_opened(tab)


@pytest.mark.parametrize(
    "address",
    ["https://huggingface.co/org/fixed", "https://huggingface.co/org/fixed/tree/main?x=1#y", "hf.co/org/fixed"],
)
def test_a_hub_address_is_the_models_id_in_the_badge_and_the_feed(feed_http, address):
    assert feed_http.get("/badge", params={"model": address}).json()["message"] == "PASS · neuronx-cc 2.28.7631.0"
    parsed = feedparser.parse(feed_http.get("/feed.atom", params={"model": address}).content)
    assert [e.title.split()[0] for e in parsed.entries] == ["org/fixed"]


def test_a_spaces_or_datasets_address_is_refused_by_the_badge_and_the_feed(feed_http):
    for address in ("https://huggingface.co/spaces/org/fixed", "huggingface.co/datasets/org/fixed"):
        assert feed_http.get("/badge", params={"model": address}).status_code == 400
        assert feed_http.get("/feed.atom", params={"model": address}).status_code == 400
