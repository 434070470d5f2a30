"""The app started on a Gradio that lacks what a patch relies on: it stands down with one line naming itself,
and the page, the named endpoints, MCP and Gradio's own files still answer (on Gradio's behaviour). Gradio's
folder constants gone changes nothing: the app finds Gradio's files where the package ships them."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.helpers import SAMPLE_ARGS, Server, call, log_message

# Run before the app by Python itself (a `sitecustomize` on PYTHONPATH): the way a Gradio release that moved
# these would look to the app. Gradio's own routes keep their copies of the folder constants.
CHANGED_GRADIO = """
import gradio.routes
from gradio import mcp, route_utils

del route_utils.BUILD_PATH_LIB

postprocess = mcp.GradioMCPServer.postprocess_output_data

def postprocess_output_data(self, values, root_url):
    return postprocess(self, values, root_url)

mcp.GradioMCPServer.postprocess_output_data = postprocess_output_data
"""


@pytest.fixture(scope="module")
def changed_gradio(tmp_path_factory):
    folder = tmp_path_factory.mktemp("changed-gradio")
    (folder / "sitecustomize.py").write_text(CHANGED_GRADIO, encoding="utf-8")
    log = folder / "app.log"
    server = Server(*SAMPLE_ARGS, env={"PYTHONPATH": str(folder)}, log=log).wait()
    yield server, log
    server.stop()


def test_each_patch_whose_target_is_gone_says_so_once(changed_gradio):
    server, log = changed_gradio
    lines = [log_message(line) for line in log.read_text(encoding="utf-8").splitlines() if "stands down" in line]
    assert lines == [
        "WARNING components.web.gradio.patches.guard: patch mcp_json stands down: "
        "postprocess_output_data no longer takes data",
    ]


def test_the_page_search_and_gradios_files_still_answer(changed_gradio):
    server, _ = changed_gradio
    with httpx.Client(base_url=server.url, timeout=60) as client:
        page = client.get("/")
        assert page.status_code == 200 and "torch-neuronx model support" in page.text
        script = re.search(r'src="[^"]*?(/assets/[^"]+\.js)"', page.text) or re.search(
            r"(/assets/[\w.-]+\.js)", page.text
        )
        assert script, "the page names none of Gradio's scripts"
        served = client.get(script.group(1), headers={"Accept-Encoding": "br"})
        assert served.status_code == 200 and "javascript" in served.headers["content-type"]
        rows = call(client, "search", query="qwen3 0.6b", view="selected", task="", neuronx_cc="", library_version="")
        assert rows[0]["model_id"] == "Qwen/Qwen3-0.6B"
        too_few = client.post("/gradio_api/call/search", json={"data": ["qwen"]})
        assert too_few.status_code == 200  # the app's own check: a clear error, not a crash
        stream = client.get(f"/gradio_api/call/search/{too_few.json()['event_id']}").text
        assert "5 arguments wanted, 1 given" in stream
