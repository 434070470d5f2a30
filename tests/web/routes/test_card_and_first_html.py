"""The first HTML of Gradio's page routes, rewritten by `FirstHtmlMiddleware`, and `GET /card.png`: read over HTTP
(a TestClient on Gradio's own app with the app's middleware and routes) on data made here."""

from __future__ import annotations

import gzip
import io
import re
from html import unescape
from html.parser import HTMLParser

import brotli
import pytest
from gradio.brotli_middleware import BrotliMiddleware
from PIL import Image
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from components.queries import details
from components.runtime import settings
from components.sources.dataset import load
from components.web.html.table import table_columns
from components.web.middleware import first_html as page_html
from components.web.routes import card as card_route
from tests.hardening.hostile import HOSTILE_MODEL, HOSTILE_SCRIPT_MODEL, LONG_MODEL
from tests.helpers import NEW_CC, row, served, write


def first_html_middleware(
    sources, busy=lambda: False, slim=page_html.unchanged, answers=page_html.no_answers
) -> Middleware:
    """The first-HTML middleware as `server.middleware()` lists it; `busy` says whether the live page's queue is full."""
    return Middleware(page_html.FirstHtmlMiddleware, sources=sources, busy=busy, slim=slim, answers=answers)


FAILED_ERROR = "Traceback (most recent call last):\n  File run.py\nNCC_EOOM001: <b>out of memory</b>"


@pytest.fixture(scope="module")
def card_sources(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    write(folder / "new.parquet", [
        row("org/passes", cc=NEW_CC, tp=2, wall_s=725),
        row("org/fails", cc=NEW_CC, result="FAIL", error=FAILED_ERROR, wall_s=61),
        row(HOSTILE_MODEL, cc=NEW_CC, result="FAIL", error="<script>window.__pwned='error'</script>"),
        row(HOSTILE_SCRIPT_MODEL, cc=NEW_CC),
    ])  # fmt: skip
    return served(load(folder))


def gradio_page(request):
    """A page as Gradio's page route answers it: its own template (both sets of its tags, no <title>)."""
    from gradio.routes import templates

    config = {"body_css": {}, "title": "torch-neuronx model support", "root": ""}
    html = templates.env.get_template("frontend/index.html").render(config=config, gradio_api_info={}, base_url="./")
    return HTMLResponse(html)


@pytest.fixture(scope="module")
def card_http(card_sources):
    """The middleware and the card route in front of Gradio's page template, compressed as Gradio compresses."""
    pages = [Route(path, gradio_page) for path in ("/", "/compare", "/charts", "/endpoints")]
    config = Route("/config", lambda request: JSONResponse({"components": []}))
    app = Starlette(
        routes=[*card_route.routes(card_sources), *pages, config],
        middleware=[
            Middleware(BrotliMiddleware, quality=4),
            first_html_middleware(card_sources),
        ],  # as Gradio orders them
    )
    return TestClient(app)


class Head(HTMLParser):
    """The first HTML as a browser's parser reads it: the title, the meta tags by name, every element id, and
    the text of the painted block (its tags dropped, its entities read)."""

    def __init__(self, html: str):
        super().__init__()
        self.title, self.meta, self.ids = "", [], []
        self._in_title = False
        self.feed(html)
        block = re.search(r'<div id="first-paint">(.*?)</div><script>', html, re.S)
        self.painted = unescape(re.sub(r"<[^>]+>", " ", block.group(1))) if block else ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        self._in_title = tag == "title"
        if tag == "meta" and ("property" in attrs or "name" in attrs):
            self.meta.append((attrs.get("property") or attrs.get("name"), attrs.get("content")))

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    def tags(self, name: str) -> list[str]:
        return [content for key, content in self.meta if key == name]

    def one(self, name: str) -> str:
        found = self.tags(name)
        assert len(found) == 1, (name, found)
        return found[0]


def first_html(card_http, url: str, **headers) -> tuple[str, Head]:
    answer = card_http.get(url, headers=headers)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert int(answer.headers["content-length"]) == answer.num_bytes_downloaded
    return answer.text, Head(answer.text)


def test_a_tested_models_link_says_its_result_stack_cores_and_wall_time(card_http):
    html, head = first_html(card_http, "/?model=org/passes")
    assert head.title == "org/passes: PASS on Trainium · torch-neuronx model support"
    description = head.one("description")
    assert "org/passes: PASS on neuronx-cc 2.28.7631.0 · Transformers 4.57.1" in description
    assert "2 cores, wall time 12 min 5 s" in description
    assert head.one("og:title") == head.title and head.one("og:description") == description
    assert head.one("twitter:card") == "summary_large_image" and head.one("twitter:title") == head.title
    assert head.one("og:url") == "http://testserver/?model=org%2Fpasses"  # no stack named: the model's own
    assert head.one("og:image").startswith("http://testserver/card.png?model=org%2Fpasses")
    painted = head.painted
    assert "org/passes" in painted and "PASS" in painted and "12 min 5 s" in painted


def test_gradios_template_tags_are_gone(card_http):
    html, head = first_html(card_http, "/")
    assert "Click to try out the app!" not in html and "{url}" not in html and "gradio.app/" not in html
    assert "@Gradio" not in html and "@teamGradio" not in html
    for name in ("og:title", "og:description", "og:url", "og:image", "twitter:card", "twitter:image"):
        head.one(name)  # exactly one of each


def test_a_failed_models_link_names_the_error_line(card_http):
    _, head = first_html(card_http, "/?model=org/fails")
    assert head.title.startswith("org/fails: FAIL on Trainium")
    assert "NCC_EOOM001: <b>out of memory</b>" in head.one("description")  # the exception line, as text
    assert "1 min 1 s" in head.one("description")


def test_an_untested_model_says_not_tested_and_the_expectation(card_http):
    _, head = first_html(card_http, "/?model=someone/untested-7B")
    assert "not tested (expected: " in head.title
    assert head.one("description").startswith("someone/untested-7B: not tested (expected: ")
    assert "not tested" in head.painted


@pytest.mark.parametrize("model", [HOSTILE_MODEL, HOSTILE_SCRIPT_MODEL])
def test_a_hostile_model_stays_text_in_every_tag_and_block(card_http, model):
    html, head = first_html(card_http, f"/?model={_q(model)}")
    assert model in head.title and model in head.one("og:title") and model in head.one("description")
    assert model in head.painted
    assert "<img src=x" not in html and "<script>window.__pwned" not in html
    assert "__pwned" not in "".join(re.findall(r"<script>(.*?)</script>", html, re.S))


def test_a_very_long_link_gets_the_pages_own_tags(card_http):
    _, head = first_html(card_http, f"/?model={_q(LONG_MODEL)}")
    assert head.title == "torch-neuronx model support" and "AAAA" not in head.one("description")


def test_the_default_page_paints_its_first_rows_and_the_data_state(card_http):
    html, head = first_html(card_http, "/")
    assert head.title == "torch-neuronx model support"
    assert "4 models tested" in head.one("description")
    painted = head.painted
    for model in ("org/passes", "org/fails", HOSTILE_MODEL):
        assert model in painted
    assert '<a class="model-link" href="./?model=org%2Fpasses"' in html  # each row links to its own answer
    assert head.ids.count("first-paint") == 1 and "results" not in head.ids  # the live page owns #results


def test_another_page_says_what_it_shows(card_http):
    _, head = first_html(card_http, "/compare")
    assert head.title == "Compare stacks · torch-neuronx model support"
    assert head.one("og:url") == "http://testserver/compare"
    assert head.one("og:image") == "http://testserver/card.png?page=compare"


def test_the_sample_is_labelled(tmp_path):
    folder = tmp_path / "d"
    write(folder / "a.parquet", [row("org/a")])
    snapshot = load(folder)
    object.__setattr__(snapshot.provenance, "kind", "sample")
    from components.queries import preview

    card = preview.preview(served(snapshot).now(), "", {})
    assert card.sample and preview.SAMPLE_LABEL in card.description


def test_the_endpoints_page_gets_its_tags_and_no_painted_block(card_http):
    """It has no notice for the swap to wait for: nothing is painted, so nothing hides its live page."""
    html, head = first_html(card_http, "/endpoints")
    assert head.title == "API endpoints · torch-neuronx model support"
    assert 'id="first-paint"' not in html and 'classList.add("fp-wait")' not in html


def test_space_host_makes_the_canonical_link(card_http, monkeypatch):
    monkeypatch.setenv("SPACE_HOST", "owner-space.hf.space")
    _, head = first_html(card_http, "/?model=org/passes")
    assert head.one("og:url").startswith("https://owner-space.hf.space/?model=org%2Fpasses")
    assert head.one("og:image").startswith("https://owner-space.hf.space/card.png?model=org%2Fpasses")


def test_a_compressed_page_is_rewritten_and_compressed_again(card_sources):
    """Gradio leaves its pages uncompressed (its Brotli middleware skips paths without an extension); should
    something under the middleware compress one, the page is read, rewritten and compressed the same way."""
    from starlette.middleware.gzip import GZipMiddleware

    app = Starlette(
        routes=[Route("/", gradio_page)],
        middleware=[first_html_middleware(card_sources), Middleware(GZipMiddleware, minimum_size=10)],
    )
    answer = TestClient(app).get("/?model=org/passes", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"
    assert int(answer.headers["content-length"]) == answer.num_bytes_downloaded
    assert "<title>org/passes: PASS" in answer.text  # httpx decoded it


def test_the_card_is_a_1200_by_630_png_kept_per_snapshot(card_http, card_sources):
    answer = card_http.get("/card.png", params={"model": "org/passes"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(answer.content)).size == (1200, 630)
    assert card_http.get("/card.png", params={"model": HOSTILE_MODEL}).status_code == 200
    assert Image.open(io.BytesIO(card_http.get("/card.png", params={"page": "charts"}).content)).size == (1200, 630)
    assert card_http.get("/card.png", params={"page": "<nope>"}).status_code == 400
    assert card_http.get("/card.png?model=" + "A" * 5000).status_code == 414


def test_the_card_cache_is_bounded_and_follows_the_snapshot(card_sources, monkeypatch):
    from components.web.figures import card

    drawn: list[str] = []
    draw = card.draw
    monkeypatch.setattr(card, "draw", lambda preview: drawn.append(preview.model) or draw(preview))
    cards = card_route.Cards(card_sources, size=2)
    client = TestClient(Starlette(routes=[Route("/card.png", cards.card)]))
    answers = {}
    for model in ("org/passes", "org/fails", "org/x", "org/x", "org/passes"):
        answer = client.get("/card.png", params={"model": model})
        assert answer.status_code == 200 and answers.setdefault(model, answer.content) == answer.content
    assert drawn == ["org/passes", "org/fails", "org/x", "org/passes"]  # two kept: "org/passes" had gone
    assert len(cards.kept) == 2
    served = card_sources.datasets.value
    try:
        card_sources.datasets.value = served.with_provenance()  # a new snapshot: every card may have changed
        assert client.get("/card.png", params={"model": "org/x"}).content == answers["org/x"]
        assert drawn[-1] == "org/x" and len(drawn) == 5 and len(cards.kept) == 1
    finally:
        card_sources.datasets.value = served


def test_what_is_not_a_page_goes_on_unchanged(card_http):
    assert card_http.get("/config").headers["content-type"].startswith("application/json")
    assert b"first-paint" not in card_http.get("/config").content


def test_encodings_round_trip():
    body = b"<html>" * 100
    assert page_html._decode(gzip.compress(body), "gzip") == body
    assert page_html._decode(brotli.compress(body), "br") == body
    assert page_html._decode(body, "zstd") is None


def _q(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


@pytest.fixture(scope="module")
def sample_sources():
    """The bundled sample, rankings snapshot and model records, as the app serves them offline."""
    from components.sources.app_sources import Sources
    from components.sources.dataset_store import DatasetStore
    from components.sources.rankings_store import resolve_rankings
    from components.sources.records_store import RecordsStore
    from tests.helpers import ROOT

    card_sources = Sources(
        DatasetStore(str(ROOT / "data" / "sample")),
        resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json")),
        RecordsStore(ROOT / "data" / "models_snapshot.json", live=False),
    )
    card_sources.begin()
    return card_sources


def headers(markup: str) -> list[tuple[str, str]]:
    """Each header's words and the order its link asks for."""
    found = re.findall(r'<th [^>]*><a href="\./\?([^"]*)"[^>]*>(.*?)</a></th>', markup)
    return [(re.sub(r"<[^>]+>|[▲▼]", "", label), unescape(query)) for query, label in found]


def cells(markup: str) -> list[str]:
    """Each cell's text, row by row."""
    body = markup[markup.index("<tbody>") :]
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", body)]


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"view": "trending"},
        {"view": "downloads", "task": "text-to-image"},
        {"view": "trending", "task": "no-such-task"},  # a task the view does not offer: its first one
        {"q": "qwen"},
        {"size": "1-10"},
        {"q": "qwen", "transformers": "4.57.1", "neuronx_cc": "2.21.18209.0"},
        {"task": "text-generation", "size": "-1"},
        {"q": "no model has this name"},
        {"sort": "-wall"},  # the link's order, not the view's
        {"view": "downloads", "sort": "size"},
        {"view": "recent"},
        {"view": "recent", "q": "qwen", "task": "text-generation"},
        {"view": "<script>", "q": "<b>x</b>", "size": "lots"},
    ],
)
def test_the_painted_rows_are_the_first_rows_the_live_page_shows_for_the_link(sample_sources, params):
    from urllib.parse import urlencode

    from components.web.gradio.pages.models import ModelsPage
    from tests.helpers import page_opened, shown

    app = Starlette(routes=[Route("/", gradio_page)], middleware=[first_html_middleware(sample_sources)])
    html, head = first_html(TestClient(app), "/?" + urlencode(params))
    painted = [unescape(m) for m in re.findall(r'<a class="model-link" href="[^"]*">([^<]*)</a>', html)]
    answer = page_opened(ModelsPage(sample_sources), params)
    live = shown(answer)
    assert painted == live[: len(painted)] and len(painted) == min(len(live), 10)
    if not live:
        assert "No models match" in head.painted
    else:
        rows = re.findall(r'<a class="model-link" href="\./\?([^"]*)">', html)
        assert all("model=" in unescape(r) for r in rows)
        # the same columns, and the same cells row by row, as the live table
        block = html[html.index('<div id="first-paint">') :]
        assert headers(block) == headers(str(answer["results"])) and len(headers(block)) == len(
            table_columns("selected")
        )
        assert cells(block) == cells(str(answer["results"]))[: len(cells(block))] and cells(block)
    if params.get("view") == "trending":
        assert "Trending" in head.title and "the Trending view" in head.painted
    if params.get("view") == "recent":  # its own title, words and last column: when each was run
        assert head.title.startswith("Recently tested") and "the Recently tested view" in head.painted
        assert headers(block)[-1] == ("Tested", "view=recent" + "&task=text-generation&q=qwen" * ("q" in params)
                                      + "&sort=tested")  # fmt: skip
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", cells(block)[len(headers(block)) - 1])  # the day each was run
    if params.get("q") == "<b>x</b>":  # search text is data: named in the title and the block, as text
        assert "“<b>x</b>”" in head.title and "<b>x</b>" not in html


# ---- the whole job without scripts: a search form, and on a model link what to copy ---------------------


def test_a_model_link_carries_install_line_cache_command_with_its_notes_and_run_py(card_http):
    html, head = first_html(card_http, "/?model=org/passes")
    painted = head.painted
    assert "pip install --extra-index-url https://pip.repos.neuron.amazonaws.com" in painted
    assert "hf buckets sync hf://buckets/aws-neuron/torch-neuronx-neff-cache/neuronxcc-" in painted
    for note in details.CACHE_SYNC_NOTES:
        assert note in painted
    assert re.search(r'<pre id="fp-run-py"><code>[^<]', html) and "python3 run.py" in painted
    for element_id in ("fp-install", "fp-cache-sync", "fp-run-py"):
        assert html.count(f'id="{element_id}"') == 1


def test_only_a_model_link_carries_run_py_and_every_models_page_has_the_form(card_http):
    for url in ("/", "/?q=org", "/?model=org/passes"):
        html, _ = first_html(card_http, url)
        assert re.search(r'<form action="./" role="search"', html), url
        assert 'name="q"' in html and 'name="view"' in html and 'name="neuronx_cc"' in html, url
        assert ('id="fp-run-py"' in html) == ("model=" in url), url
    html, _ = first_html(card_http, "/compare")
    assert "<form" not in html


def test_the_form_keeps_the_links_search_and_escapes_it(card_http):
    html, _ = first_html(card_http, "/?q=" + _q('"><script>window.__pwned=1</script>'))
    assert "window.__pwned" not in "".join(re.findall(r"<script>(.*?)</script>", html, re.S))
    assert 'value="&#34;&gt;&lt;script&gt;' in html


@pytest.mark.parametrize("model", [HOSTILE_MODEL, HOSTILE_SCRIPT_MODEL])
def test_a_hostile_models_script_and_commands_stay_text(card_http, model):
    html, head = first_html(card_http, f"/?model={_q(model)}")
    assert 'id="fp-install"' in html
    assert "<img src=x" not in html and "__pwned" not in "".join(re.findall(r"<script>(.*?)</script>", html, re.S))


def test_past_its_allowance_an_address_gets_the_apps_card_and_never_a_new_drawing(card_sources, monkeypatch):
    from components.web.allowance import Allowance
    from components.web.figures import card

    drawn: list[str] = []
    draw = card.draw
    monkeypatch.setattr(card, "draw", lambda preview: drawn.append(preview.model or preview.page) or draw(preview))
    cards = card_route.Cards(card_sources, draws=Allowance(burst=2, per_minute=1))
    client = TestClient(Starlette(routes=[Route("/card.png", cards.card)]))
    own = client.get("/card.png", params={"model": "org/passes"})
    assert own.headers["cache-control"] == card_route.CACHE_CONTROL
    made_up = [client.get("/card.png", params={"model": f"org/made-up-{i}"}) for i in range(20)]
    assert drawn == ["org/passes", "org/made-up-0", ""]  # two from its allowance, then the app's card once
    assert {a.content for a in made_up[1:]} == {cards.generic(card_sources.now())}
    assert {a.headers["cache-control"] for a in made_up[1:]} == {"no-store"}  # a crawler asks again later
    assert client.get("/card.png", params={"model": "org/passes"}).content == own.content  # kept: still served
    other = TestClient(Starlette(routes=[Route("/card.png", cards.card)]), client=("192.0.2.9", 50000))
    assert other.get("/card.png", params={"model": "org/fails"}).headers["cache-control"] == card_route.CACHE_CONTROL
    assert drawn[-1] == "org/fails"


def test_a_links_first_html_and_card_are_kept_with_an_etag_and_answered_304(card_http):
    first = card_http.get("/?model=org/passes")
    again = card_http.get("/?model=org/passes")
    assert first.headers["etag"] == again.headers["etag"] and first.text == again.text
    assert card_http.get("/?model=org/fails").headers["etag"] != first.headers["etag"]
    unchanged = card_http.get("/?model=org/passes", headers={"If-None-Match": first.headers["etag"]})
    assert unchanged.status_code == 304 and unchanged.content == b""
    card = card_http.get("/card.png?model=org/passes")
    assert card.status_code == 200 and card.headers["etag"]
    assert (
        card_http.get("/card.png?model=org/passes", headers={"If-None-Match": card.headers["etag"]}).status_code == 304
    )


def test_while_the_queue_is_full_the_answer_comes_with_the_busy_note(card_sources):
    from components.web.html import busy

    full = [True]
    app = Starlette(routes=[Route("/", gradio_page)], middleware=[first_html_middleware(card_sources, lambda: full[0])])
    card_http = TestClient(app)
    html, head = first_html(card_http, "/?model=org/passes")
    assert "org/passes" in head.painted and "PASS" in head.painted
    assert str(busy.SHOWN) in html and busy.SCRIPT_PATH + '" defer></script>' in html
    full[0] = False
    calm, _ = first_html(card_http, "/?model=org/passes")
    assert str(busy.NOTE) in calm and str(busy.SHOWN) not in calm  # hidden until the live page is refused


def test_a_request_waiting_on_a_card_refused_to_another_address_draws_it_on_its_own_allowance(card_sources):
    import threading

    from components.web.allowance import Allowance
    from tests.sources.test_moment_cache import Watched, join

    cards = card_route.Cards(card_sources, draws=Allowance(burst=1, per_minute=1))
    cards.kept = Watched(max_entries=settings.CARD_CACHE.value)
    app = Starlette(routes=[Route("/card.png", cards.card)])
    spent, fresh = TestClient(app, client=("192.0.2.1", 5000)), TestClient(app, client=("192.0.2.2", 5000))
    assert spent.get("/card.png", params={"model": "org/passes"}).headers["cache-control"] == card_route.CACHE_CONTROL
    answers: dict = {}

    def ask(name: str, client: TestClient) -> threading.Thread:
        thread = threading.Thread(target=lambda: answers.update({name: client.get("/card.png?model=org/fails")}))
        thread.start()
        return thread

    with cards.drawing:  # held: the spent address's request claims the new card, then waits to draw it
        asking = [ask("spent", spent)]
        cards.kept.wait_for_workers(2)
        asking.append(ask("fresh", fresh))
        cards.kept.wait_for_waiters(1)  # the fresh address waits for the spent one's drawing
    join(asking)
    assert answers["spent"].headers["cache-control"] == "no-store"  # the app's card
    assert answers["fresh"].headers["cache-control"] == card_route.CACHE_CONTROL  # drawn for it
    assert answers["fresh"].content != answers["spent"].content


def test_a_model_links_page_is_made_on_the_event_loop_and_a_searchs_in_a_thread(card_sources, monkeypatch):
    """Issue 48: a crowd of new model links waited longer when each page was handed to a worker thread. One
    model's answer costs the same whatever the data's size: made on the loop; a search may paint rows from the
    whole data: a worker thread."""
    import anyio

    app = Starlette(routes=[Route("/", gradio_page)], middleware=[first_html_middleware(card_sources)])
    card_http = TestClient(app)
    first_html(card_http, "/")  # Gradio's own page read once (a thread of its own)
    threads: list[str] = []
    real = anyio.to_thread.run_sync
    monkeypatch.setattr(anyio.to_thread, "run_sync", lambda fn, *a, **k: threads.append("thread") or real(fn, *a, **k))
    _, head = first_html(card_http, "/?model=org/fails")
    assert head.title.startswith("org/fails: FAIL") and threads == []
    _, head = first_html(card_http, "/?q=passes")
    assert "org/passes" in head.painted and threads == ["thread"]
    assert page_html.one_model(card_sources.now(), "", {"model": "someone/untested"})  # one model's answer too
    assert not page_html.one_model(card_sources.now(), "compare", {"model": "org/passes"})


def test_a_page_that_carries_its_live_answer_gets_no_busy_note_and_is_kept_a_minute_at_most(card_sources, monkeypatch):
    """A link whose page carries the live page's answer (the Gradio half's `Answered`) joins no queue, so a full
    queue is nothing to warn it of; its answer says how long ago the data was read, so it is made again after
    `PAGE_AGE` seconds. Where the Gradio half's edit does not fit the page (`fill` answers None), the page is the
    usual one, with its load event and the busy note. Each fill is made where `on_loop` says."""
    import anyio

    from components.web.html import busy

    fits, filled, threads = [True], [], []

    def answers(moment, params):
        if params.get("model") != "org/passes":
            return None

        def fill(html: str) -> str | None:
            filled.append(params["model"])
            return html.replace("</body>", '<i id="answered"></i></body>', 1) if fits[0] else None

        return page_html.Answered(fill=fill, on_loop=True)

    app = Starlette(routes=[Route("/", gradio_page)], middleware=[first_html_middleware(card_sources, lambda: True,
                                                                                       answers=answers)])  # fmt: skip
    card_http = TestClient(app)
    first_html(card_http, "/")  # Gradio's own page read once (a thread of its own)
    real = anyio.to_thread.run_sync
    monkeypatch.setattr(anyio.to_thread, "run_sync", lambda fn, *a, **k: threads.append("thread") or real(fn, *a, **k))
    html, head = first_html(card_http, "/?model=org/passes")
    assert '<i id="answered"></i>' in html and str(busy.SHOWN) not in html and "org/passes" in head.painted
    assert threads == []  # on the loop, as `on_loop` said
    first_html(card_http, "/?model=org/passes")
    assert filled == ["org/passes"]  # kept
    html, _ = first_html(card_http, "/?model=org/fails")  # a link that keeps its load event: busy
    assert str(busy.SHOWN) in html and '<i id="answered"></i>' not in html

    fits[0] = False
    app = Starlette(routes=[Route("/", gradio_page)], middleware=[first_html_middleware(card_sources, lambda: True,
                                                                                       answers=answers)])  # fmt: skip
    card_http = TestClient(app)
    html, _ = first_html(card_http, "/?model=org/passes")
    assert str(busy.SHOWN) in html and '<i id="answered"></i>' not in html  # the usual page: its load event


def test_a_new_model_links_page_looks_its_model_up_once(card_sources, monkeypatch):
    """The live page's answer (its panel) and the painted block both need the model's answer: a new link makes it
    once (`details.shared`), though the panel asks with why its record is unknown and the block does not."""
    from components.queries import details

    made = []
    tested = details._tested
    monkeypatch.setattr(details, "_tested", lambda *a: made.append(a[1]) or tested(*a))

    def answers(moment, params):
        def fill(html: str) -> str:
            answer = details.lookup(moment.snapshot, params["model"], "", "", moment.records, "not on the Hub")
            return html.replace("</body>", f'<i id="answered">{answer["result"]}</i></body>', 1)

        return page_html.Answered(fill=fill, on_loop=True)

    app = Starlette(routes=[Route("/", gradio_page)], middleware=[first_html_middleware(card_sources, answers=answers)])
    card_http = TestClient(app)
    html, head = first_html(card_http, "/?model=org/passes")
    assert '<i id="answered">PASS</i>' in html and head.title.startswith("org/passes: PASS")
    assert made == ["org/passes"]
    details.lookup(card_sources.now().snapshot, "org/passes")
    assert made == ["org/passes"] * 2  # outside a page's making, nothing is kept


def test_each_page_is_kept_as_long_as_a_load_answer_at_most():
    from components.runtime import settings

    assert page_html.FirstHtmlMiddleware(None, None).pages.ttl == settings.LOAD_ANSWER_AGE.value


@pytest.mark.parametrize(
    ("header", "taken"),
    [("gzip, deflate, br, zstd", "br"), ("gzip, deflate", "gzip"), ("br;q=0, gzip", "gzip"), ("identity", ""),
     ("", ""), ("gzip;q=nonsense", "gzip")],
)  # fmt: skip
def test_a_page_gradio_sent_uncompressed_is_compressed_once_in_what_the_request_takes(card_sources, header, taken):
    """Gradio sends its pages uncompressed: the first response compresses each kept page once, in the encoding
    its request takes, and the busy note is shown in that encoding too."""
    full = [False]
    app = Starlette(routes=[Route("/", gradio_page)], middleware=[first_html_middleware(card_sources, lambda: full[0])])
    card_http = TestClient(app)
    answer = card_http.get("/?model=org/passes", headers={"Accept-Encoding": header})
    assert answer.headers.get("content-encoding", "") == taken and "org/passes" in answer.text
    assert page_html.accepted(header) == taken
    if taken:
        assert "accept-encoding" in answer.headers["vary"].lower()
    full[0] = True
    busy_answer = card_http.get("/?model=org/passes", headers={"Accept-Encoding": header})
    from components.web.html import busy

    assert busy_answer.headers.get("content-encoding", "") == taken and str(busy.SHOWN) in busy_answer.text


def test_a_hub_address_in_a_link_or_a_card_is_the_models_id(card_http):
    _, head = first_html(card_http, "/?model=https%3A%2F%2Fhuggingface.co%2Forg%2Fpasses%2Ftree%2Fmain")
    assert head.title == "org/passes: PASS on Trainium · torch-neuronx model support"
    assert head.one("og:url") == "http://testserver/?model=org%2Fpasses"
    card = card_http.get("/card.png", params={"model": "hf.co/org/passes"})
    assert (
        card.status_code == 200 and card.content == card_http.get("/card.png", params={"model": "org/passes"}).content
    )
