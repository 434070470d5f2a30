"""MCP answers as JSON text; Gradio's own answers wherever the patch no longer fits."""

from __future__ import annotations

from gradio import mcp

from components.web.gradio.patches import mcp_json
from components.web.gradio.patches.guard import apply_patch
from tests.web.gradio.patches.conftest import fresh


def gradios(self, data, root_url):
    """Stands in for Gradio's method: what it was handed."""
    return list(data)


def test_it_fits_this_gradio():
    mcp_json.PATCH.check()


def test_dicts_and_lists_go_on_as_json_text(monkeypatch):
    monkeypatch.setattr(mcp.GradioMCPServer, "postprocess_output_data", gradios)
    assert apply_patch(fresh(mcp_json.PATCH))
    sent = mcp.GradioMCPServer.postprocess_output_data(None, [{"notes": None, "id": "é"}, [1], "text", 2], "/")
    assert sent == ['{"notes": null, "id": "é"}', "[1]", "text", 2]
    file = {"path": "a.txt", "meta": {"_type": "gradio.FileData"}}
    assert mcp.GradioMCPServer.postprocess_output_data(None, [file], "/") == [file]  # files: Gradio's


def test_without_the_method_it_stands_down(monkeypatch, stands_down):
    monkeypatch.delattr(mcp.GradioMCPServer, "postprocess_output_data")
    assert "GradioMCPServer.postprocess_output_data is missing" in stands_down(mcp_json.PATCH)
    assert not hasattr(mcp.GradioMCPServer, "postprocess_output_data")


def test_a_changed_signature_keeps_gradios_method(monkeypatch, stands_down):
    def changed(self, values, root_url):
        return values

    monkeypatch.setattr(mcp.GradioMCPServer, "postprocess_output_data", changed)
    assert "no longer takes data" in stands_down(mcp_json.PATCH)
    assert mcp.GradioMCPServer.postprocess_output_data is changed
