"""The Models tab's handlers: inputs and answers by name, the filters as one value, the pickers."""

import html
import json
import re

import gradio as gr
import pytest

from components.queries import views
from components.web.gradio.pages.filters import Filters
from components.web.gradio.pages.models import PANEL, TABLE, ModelsPage
from tests.helpers import NEW_CC, OLD_CC, page_opened, served, shown


def command(block: str) -> str:
    """The text of a command block (`markup.command_block`), as Copy takes it."""
    found = re.search(r'<pre class="command" id="[^"]*">(.*?)</pre>', str(block), re.DOTALL)
    assert found, block
    return html.unescape(found.group(1))


def value(update):
    return update["value"] if isinstance(update, dict) else update


def test_the_filters_name_a_library_and_its_version():
    assert Filters(library="transformers", version="4.57.1").library_version == "4.57.1"
    assert Filters(library="diffusers", version="0.36.0").library_version == "diffusers==0.36.0"
    assert Filters(version="4.57.1").library_version == "4.57.1"
    query = Filters.of({"search": " qwen ", "view": "TRENDING", "cc": NEW_CC}).query()
    assert (query.text, query.view, query.neuronx_cc) == ("qwen", "trending", NEW_CC)


def test_a_deep_link_to_a_library_sets_all_three_pickers(tab):
    answer = page_opened(tab, {"library": "diffusers"})
    assert value(answer["library"]) == "diffusers" and value(answer["version"]) == "0.36.0"
    assert value(answer["cc"]) == NEW_CC
    assert [v for _, v in answer["library"]["choices"]] == ["", "transformers", "diffusers", "sentence-transformers"]
    assert shown(answer) == ["stabilityai/sd-turbo"] and "library=diffusers" in answer["link"]


def test_all_libraries_is_the_library_pickers_default_and_searches_every_library(tab):
    answer = page_opened(tab)  # `library=` absent: all libraries, each one's newest stack
    assert answer["library"]["choices"][0] == ("All libraries", "") and value(answer["library"]) == ""
    assert (
        value(answer["cc"]) == "" == value(answer["version"])
        and answer["cc"]["choices"][0][0] == "Each library's newest"
    )
    assert set(shown(answer)) == {"Qwen/Qwen3-0.6B", "stabilityai/sd-turbo", "BAAI/bge-small-en-v1.5"}
    summary = str(answer["summary"])
    assert "each library's newest stack" in summary and "Diffusers 0.36.0 <b>1</b>" in summary
    assert "stack" not in answer["link"] and "library" not in answer["link"]
    found = tab.table(search="sd turbo", view="selected", library="", cc=None)
    assert shown(found) == ["stabilityai/sd-turbo"] and "Diffusers 0.36.0" in str(found["results"])
    # "All libraries" picked back from a stack: no stack named again
    back = tab.on_library(view="selected", cc=NEW_CC, library="", version="0.36.0")
    assert value(back["library"]) == "" and len(shown(back)) == 3 and "neuronx_cc" not in back["link"]


def test_recently_tested_is_picked_like_any_view_and_says_its_order(tab):
    answer = page_opened(tab, {"view": "recent"})
    assert ("Recently tested", "recent") in views.choices()  # the picker's choices
    assert value(answer["view"]) == "recent" and "view=recent" in answer["link"]
    summary, results = str(answer["summary"]), str(answer["results"])
    assert 'id="view-note"' in summary and "newest runs first" in summary
    assert "each library's newest stack" in summary and ">Tested<" in results and "Rank on the Hub" not in results
    picked = tab.on_view(view="recent", task="", search="", cc=None, library="", version="")
    assert value(picked["task"]) == "" and ("All tasks", "") in picked["task"]["choices"]  # it takes any task
    assert shown(picked) == shown(answer)


def test_another_library_takes_its_newest_version_and_the_open_model_follows(tab):
    base = {"view": "selected", "cc": NEW_CC, "library": "sentence-transformers", "version": "5.0.0"}
    answer = tab.on_library(**base, link="?model=BAAI/bge-small-en-v1.5")
    assert value(answer["version"]) == "5.1.2"  # 5.0.0 is a Transformers version
    assert shown(answer) == ["BAAI/bge-small-en-v1.5"]
    assert command(value(answer["install"])).endswith("sentence-transformers==5.1.2")
    assert 'Trainium cores:</b> <span class="nowrap">1</span>' in str(answer["details"])  # the neuron_cores column


def test_a_compiler_without_the_library_falls_back_to_its_first_stack(tab):
    answer = tab.on_stack(view="selected", cc=OLD_CC, library="diffusers", version="0.36.0")
    assert (value(answer["library"]), value(answer["version"])) == ("transformers", "4.50.0")
    assert "transformers=4.50.0" in answer["link"] and shown(answer) == ["Qwen/Qwen3-0.6B"]


@pytest.mark.parametrize(("address", "what"), [("https://huggingface.co/spaces/org/app", "a Space"),
                                              ("huggingface.co/datasets/org/data", "a dataset")])  # fmt: skip
def test_a_spaces_address_given_as_a_model_says_under_the_notice_that_it_is_not_a_model(tab, address, what):
    answer = page_opened(tab, {"model": address})
    header = str(value(answer["header"]))
    assert 'id="provenance"' in header and 'id="not-a-model"' in header and f"the address of {what}" in header
    assert "not-a-model" not in str(value(page_opened(tab, {"model": "Qwen/Qwen3-0.6B"})["header"]))


def test_before_a_model_is_opened_the_details_hold_a_guide_not_empty_boxes(tab):
    answer = page_opened(tab)
    assert "Open a model" in str(answer["details"])
    assert all(answer[name]["visible"] is False for name in ("install", "cache_sync", "run_py", "run_command"))
    opened = page_opened(tab, {"model": "Qwen/Qwen3-0.6B"})
    assert "Open a model" not in str(opened["details"]) and opened["run_py"]["visible"] is True
    # run.py as plain HTML (no code editor on the page): whole, each line numbered, with Copy and Download
    script = value(opened["run_py"])
    assert '<span class="line"># run Qwen/Qwen3-0.6B' in script and 'data-download="run-py-code"' in script
    assert set(opened) >= set(TABLE) | set(PANEL)


def test_the_librarys_own_column_is_a_row_of_the_stack_table_not_an_unknown_field(tab):
    """The row's `diffusers` column, which the app does not list among its columns, is the version of the library
    the stack is named by: shown in the stack table. Columns it does not know at all stay under "Other fields"
    (tests/web/html/test_details.py)."""
    answer = tab.on_stack(
        view="selected", cc=NEW_CC, library="diffusers", version="0.36.0", link="?model=stabilityai/sd-turbo"
    )
    details = str(value(answer["facts"]))  # under the commands
    stack = details[details.index('<table class="stack-table">') :]
    assert '<th scope="row">Diffusers</th><td><code>0.36.0</code>' in stack[: stack.index("</table>")]
    assert "Other fields" not in details


def test_a_size_link_sets_the_picker_says_what_was_left_out_and_keeps_its_own_range(world):
    from components.sources.records import parse_records
    from components.sources.records_store import RecordsStore

    snapshot, rankings = world
    records = parse_records([{"id": "Qwen/Qwen3-0.6B", "safetensors": {"total": 751_632_384}}], "test")
    store = RecordsStore(records, live=False)
    store.begin()
    tab = ModelsPage(served(snapshot, rankings, store))
    answer = page_opened(tab, {"size": "-1", "transformers": "4.57.1"})
    assert value(answer["size"]) == "-1" and shown(answer) == ["Qwen/Qwen3-0.6B"]
    assert "size=-1" in answer["link"]
    assert "3 models of unknown size left out" in str(answer["summary"])
    assert "&#39;Qwen/Qwen3-0.6B&#39;" in str(answer["snippets"]) and "union_by_name" in str(answer["snippets"])
    custom = page_opened(tab, {"size": "0.5-0.8"})
    assert ("0.5–0.8 B", "0.5-0.8") in custom["size"]["choices"] and value(custom["size"]) == "0.5-0.8"
    assert value(page_opened(tab)["size"]) == ""  # no size picked: every model, unknown sizes too


def test_a_pasted_config_is_checked_and_broken_text_says_why(tab):
    config = (
        '{"architectures": ["<b>Evil</b>ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2,'
        ' "num_attention_heads": 4}'
    )
    answer = tab.on_config(config_json=config, cc=NEW_CC, library="transformers", version="4.57.1")
    html = str(answer["config_answer"])
    assert "estimate" in html and "Unknown" in html and "<b>Evil" not in html  # an id is data
    assert "config-run-py" not in html  # no passing script of that architecture to adapt
    broken = tab.on_config(config_json="[1, 2]", cc=NEW_CC, library="transformers", version="4.57.1")
    assert "JSON list" in str(broken["config_answer"])


def test_the_cache_command_comes_with_what_it_needs_to_work_as_pasted(tab):
    from components.queries.details import CACHE_SYNC_NOTES

    opened = page_opened(tab, {"model": "Qwen/Qwen3-0.6B"})
    assert command(value(opened["cache_sync"])).startswith("hf buckets sync ")
    info = html.unescape(value(opened["cache_sync"]))  # the notes, listed under the command
    assert all(note in info for note in CACHE_SYNC_NOTES)
    assert 'pip install -U "huggingface_hub>=1.5"' in info and "--dry-run" in info
    assert "TORCH_NEURONX_NEFF_CACHE_DIR" in info


def test_the_page_keeps_no_state_on_the_server_so_an_open_tab_holds_no_connection(libraries):
    import gradio as gr

    _, demo, _ = _wired(libraries)
    # Gradio opens a heartbeat for as long as the tab stays open when a page holds a gr.State
    assert not [b for b in demo.blocks.values() if isinstance(b, gr.State)]
    assert demo.get_config_file()["connect_heartbeat"] is False


def test_show_more_counts_from_the_rows_shown_and_keeps_the_open_model(tab):
    base = {"view": "selected", "cc": NEW_CC, "library": "transformers", "version": "4.57.1"}
    first = tab.table(**base, link="?model=Qwen/Qwen3-0.6B")
    assert first["rows"] == str(len(shown(first))) and "model=Qwen%2FQwen3-0.6B" in first["link"]
    more = tab.more(**base, rows=first["rows"], link=first["link"])
    assert more["rows"] == str(len(shown(more))) and "model=Qwen%2FQwen3-0.6B" in more["link"]
    for nonsense in ("", "lots", "-5", "9" * 50, None):  # the box is the browser's to send: bounded
        assert tab.more(**base, rows=nonsense)["rows"] == first["rows"]


def test_a_clicked_row_opens_the_model_its_script_names(world):
    tab = ModelsPage(served(*world))
    base = {"view": "selected", "cc": NEW_CC, "library": "transformers", "version": "4.57.1"}
    ids = shown(tab.table(**base))
    assert len(ids) >= 3 and ids[-1].startswith("evil/")  # an id in the data that is no Hub id opens too
    clicked = tab.on_select(gr.EventData(None, {"index": [0, 0], "value": ids[-1]}), None, **base)
    assert "model=evil%2F%3Cimg" in clicked["link"]
    assert "&lt;img src=x onerror=alert(1)&gt;" in str(clicked["details"])
    sorted_link = "?sort=-wall&" + clicked["link"]
    kept = tab.on_select(gr.EventData(None, {"value": ids[0]}), None, **base, link=sorted_link)
    assert "sort=-wall" in kept["link"]  # opening a model keeps the table's order
    for hostile in ({"value": "<script>x</script>"}, {"value": ["a/b"]}, {}, None):
        answer = tab.on_select(gr.EventData(None, hostile), None, **base)
        assert "model=" not in answer["link"] and "Open a model" in str(answer["details"])


def test_a_header_sorts_numbers_as_numbers_and_a_second_click_turns_the_order(world):
    tab = ModelsPage(served(*world))
    base = {"view": "selected", "cc": NEW_CC, "library": "transformers", "version": "4.57.1"}
    first = tab.on_sort(gr.EventData(None, {"sort": "wall"}), **base)
    assert "sort=-wall" in first["link"] and 'aria-sort="descending"' in str(first["results"])
    again = tab.on_sort(gr.EventData(None, {"sort": "wall"}), **base, link=first["link"])
    assert "sort=wall" in again["link"] and 'aria-sort="ascending"' in str(again["results"])
    by_name = tab.on_sort(gr.EventData(None, {"sort": "model"}), **base)
    turned = tab.on_sort(gr.EventData(None, {"sort": "model"}), **base, link=by_name["link"])
    assert shown(by_name) == sorted(shown(by_name), key=str.lower) and shown(turned) == shown(by_name)[::-1]
    unknown = tab.on_sort(gr.EventData(None, {"sort": "<script>"}), **base, link=first["link"])
    assert "sort=-wall" in unknown["link"]  # an unknown column changes nothing


def _wired(libraries):
    """The Models page as Gradio runs it: (tab, demo, call), where `call(handler, state, **values)` runs the
    page event of that handler through Gradio's own processing for one session, and answers `{name: value}`."""
    import gradio as gr

    from tests.helpers import run_async

    snapshot, rankings = libraries
    tab = ModelsPage(served(snapshot, rankings))
    with gr.Blocks() as demo:
        tab.layout(gr.HTML(elem_id="header"))  # as app.py names it
        tab.wire(demo)
    names = {id(getattr(tab.widgets, name)): name for name in vars(tab.widgets)}

    def call(handler: str, state, **values) -> dict:
        fn = next(f for f in demo.fns.values() if f.name == handler)
        inputs = [values.get(names[id(c)]) for c in fn.inputs]
        out = run_async(demo.process_api(fn, inputs, state=state))["data"]
        return {names[id(c)]: value for c, value in zip(fn.outputs, out, strict=True)}

    return tab, demo, call


def test_a_pick_sent_twice_gets_the_same_answer_twice_not_an_error(libraries):
    """Gradio 6.31's dropdown sends one pick twice (on choosing, then on blur); the second arrives with the
    old version after the first answer gave the session the new compiler's versions. Gradio's own check
    of a picker against those choices answered the second "Error", over every picker, for good."""
    from gradio.state_holder import SessionState

    tab, demo, call = _wired(libraries)
    session = SessionState(demo)
    opened = call("on_load", session)
    stale = {"view": "selected", "cc": OLD_CC, "library": "transformers", "version": value(opened["version"])}
    assert stale["version"] != "4.50.0"  # the newest compiler's version, which the old one lacks
    first, second = call("on_stack", session, **stale), call("on_stack", session, **stale)
    assert value(first["version"]) == value(second["version"]) == "4.50.0"
    assert value(second["cc"]) == OLD_CC and "transformers=4.50.0" in second["link"]


def test_a_tab_whose_session_the_server_dropped_still_changes_stack_and_opens_a_model(libraries):
    """Past `SESSIONS` newer visitors the server forgets a tab's session; its next event comes
    with a new one, which was never sent the pickers' choices."""
    from gradio.state_holder import SessionState

    tab, demo, call = _wired(libraries)
    picked = call("on_stack", SessionState(demo), view="selected", cc=OLD_CC, library="transformers", version="5.0.0")
    assert value(picked["version"]) == "4.50.0" and value(picked["cc"]) == OLD_CC
    link = f"?neuronx_cc={OLD_CC}&model=Qwen/Qwen3-0.6B"
    more = call("more", SessionState(demo), view="selected", cc=OLD_CC, library="transformers", version="4.50.0",
                rows="100", link=link)  # fmt: skip
    assert "model=Qwen%2FQwen3-0.6B" in more["link"]


def test_a_crafted_event_with_numbers_or_lists_for_text_reads_them_as_empty(libraries):
    from gradio.state_holder import SessionState

    tab, demo, call = _wired(libraries)
    answer = call("on_stack", SessionState(demo), search=["x"], view={"a": 1}, cc=7, library=True, version=1.5,
                  link=["?model=Qwen/Qwen3-0.6B"])  # fmt: skip
    assert value(answer["cc"]) == "" == value(answer["library"]) and "Qwen/Qwen3-0.6B" in shown(answer)
    assert "model=" not in answer["link"]


def test_a_links_load_answer_is_worked_out_once_per_data_moment_and_then_taken_on_the_event_loop(
    libraries, monkeypatch
):
    import asyncio

    import anyio

    from tests.helpers import run_async

    tab, _, _ = _wired(libraries)
    made: list[int] = []
    work_out = tab._on_load
    monkeypatch.setattr(tab, "_on_load", lambda now, params: made.append(1) or work_out(now, params))

    async def burst(count: int) -> list[dict]:
        return await asyncio.gather(*(tab.on_load(None) for _ in range(count)))

    answers = run_async(burst(20))  # each asks from a worker thread: one works it out, the others wait
    assert made == [1] and all(a == answers[0] for a in answers)

    def no_thread(*args, **kwargs):
        raise AssertionError("a kept answer is taken on the event loop")

    with monkeypatch.context() as patched:
        patched.setattr(anyio.to_thread, "run_sync", no_thread)
        assert run_async(burst(3)) == answers[:3] and made == [1]
    tab.sources.datasets.value = tab.sources.now().snapshot.with_provenance()  # a refresh: worked out again
    assert run_async(burst(1)) == answers[:1] and made == [1, 1]


def test_the_tables_rows_are_made_once_for_every_model_opened_and_only_the_open_ones_row_says_selected(
    world, monkeypatch
):
    """A crowd opening many models of one view shares one rendering of its rows (`html/table_rows.py`); each
    answer marks its own model's row, and a refresh makes them again."""
    import re

    from components.web.gradio.pages import models

    tab = ModelsPage(served(*world))
    made: list[int] = []
    real = models.table_rows
    monkeypatch.setattr(models, "table_rows", lambda *args: made.append(1) or real(*args))
    base = {"view": "selected", "cc": NEW_CC, "library": "transformers", "version": "4.57.1"}
    ids = shown(tab.table(**base))
    answers = {model: tab.table(**base, link=f"?model={model}") for model in ids[:3]}
    assert made == [1] and len(ids) >= 3
    for model, answer in answers.items():
        rows = re.findall(r'<tr data-model="[^"]*" data-index="\d+" aria-selected="(\w+)"', str(answer["results"]))
        assert rows.count("true") == 1 and rows[ids.index(model)] == "true"
        assert shown(answer) == ids and f"model={model.replace('/', '%2F')}" in answer["link"]
    assert str(answers[ids[0]]["results"]) != str(answers[ids[1]]["results"])
    tab.table(**base, link="?sort=-wall")  # another order: its own rows
    assert made == [1, 1]
    tab.sources.datasets.value = tab.sources.now().snapshot.with_provenance()  # a refresh: made again
    tab.table(**base)
    assert made == [1, 1, 1]


def test_a_new_links_answer_is_made_on_the_event_loop_when_its_views_rows_are_kept(world, monkeypatch):
    """Issue 48: a crowd of new model links waited longer when each answer was handed to a worker thread.
    A link whose view's rows are kept costs one model's answer: made on the loop. A link whose rows must be
    worked out (a new search) still goes to a thread, and either way the answer is the same."""
    import anyio
    from starlette.requests import Request

    from tests.helpers import run_async

    tab, _, _ = _wired(world)
    threads: list[str] = []
    real = anyio.to_thread.run_sync
    monkeypatch.setattr(anyio.to_thread, "run_sync", lambda fn, *a, **k: threads.append("thread") or real(fn, *a, **k))

    def link(query: str) -> gr.Request:
        scope = {"type": "http", "headers": [], "client": ("198.51.100.4", 1), "query_string": query.encode()}
        return gr.Request(request=Request(scope))

    def opened(query: str) -> tuple[dict, bool]:
        now = tab.sources.now()
        params = dict(link(query).query_params)
        kept_rows = tab._rows_kept(now, params)
        answer = run_async(tab.on_load(link(query)))
        assert answer == tab._on_load(now, params)[1]  # the same answer wherever it was made
        return answer, kept_rows

    _, kept_rows = opened("model=Qwen/Qwen3-0.6B")
    assert not kept_rows and threads == ["thread"]  # the view's rows worked out: in a thread
    _, kept_rows = opened("model=meta-llama/Llama-3.1-8B-Instruct")
    assert kept_rows and threads == ["thread"]  # the same view, another model: on the loop
    _, kept_rows = opened("q=llama&model=meta-llama/Llama-3.1-8B-Instruct")
    assert not kept_rows and threads == ["thread", "thread"]  # a search's rows: a thread again


def test_a_tested_models_link_carries_its_answer_in_the_page_and_other_links_keep_their_load_event(world):
    """Issue 48: a crowd spread over model links waited on each link's load event. A tested model's link puts its
    load answer into the page's config (`first_answer`), the same answer the load event sends, and the page
    never triggers that event. A link the visit must count (an untested model) or that opens no model keeps it."""
    from fastapi.testclient import TestClient
    from gradio.routes import App

    from components.queries import links, wanted
    from tests.web.gradio.test_page_config import by_elem_id, inlined

    tab, demo, _ = _wired(world)
    demo.theme = gr.themes.Default()  # what launch() sets, as it sets the config
    demo.config = demo.get_config_file()
    html = TestClient(App.create_app(demo)).get("/").text
    now = tab.sources.now()
    tested = [m for m in now.snapshot.model_ids if not wanted.untested(now.snapshot, m, now.records)]
    untested = [m for m in now.snapshot.model_ids if wanted.untested(now.snapshot, m, now.records)]
    assert tested and untested

    params = {"model": tested[0]}
    answered = tab.first_answer(now, params)
    assert answered is not None
    config = inlined(answered.fill(html))
    props = {name: c["props"] for name, c in by_elem_id(config).items()}
    for name, value in tab._on_load(now, params)[1].items():
        elem_id = getattr(tab.widgets, name).elem_id
        if isinstance(value, dict):
            assert {k: props[elem_id][k] for k in value if k != "__type__"} == json.loads(json.dumps(
                {k: v for k, v in value.items() if k != "__type__"}))  # fmt: skip
        else:
            assert props[elem_id]["value"] == value
    assert tested[0] in props["details-summary"]["value"] and command(props["install"]["value"]).startswith(
        "pip install"
    )
    assert links.model_of(props["link"]["value"]) == tested[0]
    assert not [d for d in config["dependencies"] if d["backend_fn"] and any(t[1] == "load" for t in d["targets"])]

    assert tab.first_answer(now, {"model": untested[0]}) is None  # the load event counts the visit
    assert tab.first_answer(now, {}) is None and tab.first_answer(now, {"model": "not/in-the-data"}) is None


def test_a_links_answer_is_cheap_enough_for_the_event_loop_once_its_views_rows_are_kept(world):
    tab, _, _ = _wired(world)
    now = tab.sources.now()
    link = {"model": "Qwen/Qwen3-0.6B"}
    assert tab.first_answer(now, link).on_loop is False  # the view's rows not worked out yet: a thread
    tab._on_load(now, link)
    assert tab.first_answer(now, link).on_loop is True
    assert tab.first_answer(now, {**link, "q": "qwen"}).on_loop is False  # a search's rows: a thread


def test_a_search_with_no_match_on_the_stack_named_points_to_every_library(tab):
    answer = tab.table(search="sd turbo", view="selected", cc=NEW_CC, library="transformers", version="5.0.0")
    assert shown(answer) == []
    summary = str(answer["summary"])
    assert 'id="elsewhere"' in summary and "1 model matches on Diffusers 0.36.0" in summary
    assert 'href="./?q=sd+turbo"' in summary  # no stack named: every library
    space = tab.table(search="https://huggingface.co/spaces/org/app", view="selected", library="")
    assert 'id="not-a-model"' in str(space["summary"]) and "a Space" in str(space["summary"])
