"""The app is one page per tool: the first page carries only the Models page's layout."""

import httpx
import pytest

OTHER_PAGES = {
    "compare": "compare-result",
    "charts": "chart-wall",
    "architectures": "arch-table",
    "grid": "grid-box",
    "failures": "failures-result",
    "wanted": "wanted-result",
}


def test_the_first_page_describes_only_the_models_page(sample_app):
    first = httpx.get(sample_app.url + "/", timeout=30).text
    assert 'elem_id": "results"' in first.replace('elem_id":"', 'elem_id": "')
    for element in OTHER_PAGES.values():
        assert element not in first, element
    assert "cache_sync_command" not in first  # the endpoints' answer schemas sit on a page of their own


@pytest.mark.parametrize(("path", "element"), OTHER_PAGES.items())
def test_each_tool_has_a_page_that_labels_the_data(sample_app, path, element):
    page = httpx.get(f"{sample_app.url}/{path}", timeout=30)
    assert page.status_code == 200 and element in page.text
    assert '"header"' in page.text  # the data notice (it says when the data is sample data) heads every page
