"""The details panel's top: every field from the data is escaped text, never markup."""

import pytest

from components.domain.stacks import library_name
from components.queries.details import lookup
from components.runtime import settings
from components.sources.dataset import load
from components.web.html import details
from tests.helpers import NEW_CC, OLD_CC, row, write

HOSTILE = "evil/<img src=x onerror=alert(1)>"


def test_details_escape_every_field(world):
    snap, _ = world
    html = details.details(lookup(snap, HOSTILE, NEW_CC, "4.57.1"))
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html


def test_a_long_traceback_is_collapsed_with_its_last_line_in_view():
    error = "\n".join(f"  frame {i}" for i in range(40)) + "\nNCC_EOOM001: out of memory <b>"
    html = details._error_block(error)
    assert html.startswith('<details class="error">') and "NCC_EOOM001: out of memory &lt;b&gt;" in html


def test_details_explain_what_a_result_means(world):
    snap, _ = world
    html = details.details(lookup(snap, "Qwen/Qwen3-0.6B", NEW_CC, "4.57.1"))
    assert "32 tokens" in html and "says nothing about throughput" in html
    html = details.details(lookup(snap, "google/gemma-3-4b-it", NEW_CC, "4.57.1"))
    assert "Excluded because:</b> not prioritized" in html
    untested = details.details(lookup(snap, "nobody/nothing"))
    assert "No run on" in untested and "nor on any other stack" in untested
    assert untested.count("not tested") + untested.count("No run") == 2  # the badge and the lead: said once


def test_the_panel_leads_with_the_answer_and_the_run_that_last_passed(world):
    snap, _ = world
    failed = details.details(lookup(snap, "Qwen/Qwen3-0.6B", OLD_CC, "4.50.0"))  # passes on the newer stacks
    lead = failed[failed.index('<p class="lead"') :]
    lead = lead[: lead.index("</p>")]
    assert lead.startswith('<p class="lead" id="lead"><b>FAIL</b> on <span class="stack"')
    assert "— last" in lead and "<b>PASS</b> on" in lead and "Transformers 5.0.0" in lead
    assert 'href="./?model=Qwen%2FQwen3-0.6B&amp;neuronx_cc=' in lead  # a link to that run
    passed = details.details(lookup(snap, "Qwen/Qwen3-0.6B", NEW_CC, "5.0.0"))
    assert "— last" not in passed and "<b>PASS</b> on" in passed
    llama = details.details(lookup(snap, "meta-llama/Llama-3.1-8B-Instruct", NEW_CC, "4.57.1"))
    assert "— last" in llama and "<b>PASS</b> on" in llama  # it passed on the older compiler


def test_a_huge_error_is_cut_to_its_end():
    error = "x" * 300_000 + "\nNCC_EOOM001: the end"
    html = details._error_block(error)
    assert "NCC_EOOM001: the end" in html and "characters not shown here" in html
    assert len(html) < settings.ERROR_SHOWN.value * 2 + 2_000


@pytest.mark.parametrize(
    ("library", "version", "model"),
    [("diffusers", "0.36.0", "stabilityai/sd-turbo"),
     ("sentence-transformers", "5.1.2", "sentence-transformers/all-MiniLM-L6-v2")],
)  # fmt: skip
def test_a_run_of_another_library_is_not_said_to_have_generated_tokens(tmp_path, library, version, model):
    """A Diffusers or Sentence Transformers run makes an image or embeddings, not 32 tokens of text."""
    write(tmp_path / "other.parquet", [
        row(model, cc=NEW_CC, library=library, lib_version=version, transformers="4.57.1"),
        row("org/broken", cc=NEW_CC, library=library, lib_version=version, transformers="4.57.1", result="FAIL",
            error="RuntimeError: boom", cpu_match=None),
    ])  # fmt: skip
    write(tmp_path / "text.parquet", [row("org/text", cc=NEW_CC)])
    snap = load(tmp_path)
    passed = details.details(lookup(snap, model, NEW_CC, f"{library}=={version}"))
    failed = details.details(lookup(snap, "org/broken", NEW_CC, f"{library}=={version}"))
    assert "PASS" in passed and "FAIL" in failed
    for html in (passed, failed):
        assert "tokens" not in html and "the harness&#39;s checks" in html.replace("&#x27;", "&#39;")
    assert "says nothing about throughput" in passed and "the error says where it stopped" in failed
    assert "CPU comparison: match" in passed  # the check the row records, beside it
    assert "32 tokens" in details.details(lookup(snap, "org/text", NEW_CC, "4.57.1"))  # a Transformers run
    # the library the stack is named by is a row of the stack table, not an unknown column under it
    column = library.replace("-", "_")
    html = details.details(lookup(snap, model, NEW_CC, f"{library}=={version}"), {column: version, "newer": "x"})
    stack = html[html.index('<table class="stack-table">') :]
    stack = stack[: stack.index("</table>")]
    assert f'<th scope="row">{library_name(library)}</th><td><code>{version}</code>' in stack
    others = html[html.index("Other fields") :]
    assert "newer" in others and column not in others
