"""The scripts served as files of their own: `/busy.js`, `/table.js` and `/page.js`, each with an ETag and kept by
browsers."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.testclient import TestClient

from components.web.html import busy
from components.web.routes import scripts


def test_the_busy_script_is_served_as_javascript_with_an_etag_and_304():
    http = TestClient(Starlette(routes=scripts.routes()))
    answer = http.get(busy.SCRIPT_PATH)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert answer.text == busy.SCRIPT and "/queue/join" in answer.text and "location.reload" in answer.text
    assert "max-age" in answer.headers["cache-control"]
    again = http.get(busy.SCRIPT_PATH, headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_the_shown_notes_style_is_the_one_the_script_gives_it():
    assert busy.NOTE_STYLE in busy.SCRIPT and busy.NOTE_STYLE in str(busy.SHOWN)


def test_a_page_names_the_script_from_its_public_address():
    tag = str(busy.script_tag("https://owner-space.hf.space"))
    assert tag == '<script src="https://owner-space.hf.space/busy.js" defer></script>'


def test_the_table_script_is_served_as_a_module_the_page_imports():
    from components.web.html import table

    http = TestClient(Starlette(routes=scripts.routes()))
    answer = http.get(table.SCRIPT_PATH)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert answer.text.startswith("export default (element, trigger, watch) => {") and 'trigger("select"' in answer.text
    assert table.SCRIPT_PATH in table.TABLE_JS and len(table.TABLE_JS) < 200  # the page's config carries only this
    again = http.get(table.SCRIPT_PATH, headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304


def test_every_pages_script_is_a_file_and_the_head_only_names_it():
    from components.web.html import head

    http = TestClient(Starlette(routes=scripts.routes()))
    answer = http.get(head.SCRIPT_PATH)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    # the model page's way back, the API docs' link, the copy buttons and run.py's download
    for part in (".back-to-table", "/endpoints#api", "button[data-copy]", "button[data-download]"):
        assert part in answer.text
    assert answer.text.startswith("if (!window.__pageScript) {")  # once, however often Gradio puts the head in
    # every page's config carries the head: the feed's link and the script's name, not the script
    assert head.HEAD.count("<script") == 1 and 'src="page.js"' in head.HEAD and len(head.HEAD) < 200
    assert http.get(head.SCRIPT_PATH, headers={"If-None-Match": answer.headers["etag"]}).status_code == 304


def test_a_script_is_not_modified_for_its_tag_in_a_list_and_sent_whole_for_a_header_that_only_holds_it():
    http = TestClient(Starlette(routes=scripts.routes()))
    tag = http.get(busy.SCRIPT_PATH).headers["etag"]
    assert http.get(busy.SCRIPT_PATH, headers={"If-None-Match": f'"old", W/{tag}'}).status_code == 304
    # a header that holds the tag but is no list of tags names nothing (a substring match answered 304)
    assert http.get(busy.SCRIPT_PATH, headers={"If-None-Match": f"{tag}junk"}).status_code == 200
