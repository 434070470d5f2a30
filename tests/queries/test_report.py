"""components/queries/report.py and the FAIL fields of /lookup and /compare: the cause and a pre-filled bug
report on aws-neuron/aws-neuron-sdk, at most 8 KB, naming the stack a regression last passed on."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from components.queries import compare, details, links, report
from components.runtime import settings
from components.sources.dataset import load
from tests.helpers import row, write

OLD, NEW = "2.26.9117.0+c4d2e7a1", "2.28.7631.0+82129205"
ERROR = (
    "Traceback (most recent call last):\n"
    '  File "/home/ubuntu/run.py", line 52, in <module>\n'
    "    main()\n"
    "torch_neuronx.runtime.NeuronRuntimeError: NRT_RESOURCE (4) while executing 'model_forward_1' on nd0 nc{core} "
    "(prefill)\n"
)


@pytest.fixture
def snap(tmp_path):
    write(tmp_path / "old.parquet", [
        row("a/regressed", cc=OLD),
        row("a/always", cc=OLD, result="FAIL", error=ERROR.format(core=1)),
    ])  # fmt: skip
    write(tmp_path / "new.parquet", [
        row("a/regressed", cc=NEW, result="FAIL", tp=8, hbm_capacity_gb=192.0, error=ERROR.format(core=5)),
        row("a/always", cc=NEW, result="FAIL", error=ERROR.format(core=0)),
        row("a/huge", cc=NEW, result="FAIL",
            error="\n".join(f"  frame {i} " + "x" * 400 for i in range(5000)) + "\nRuntimeError: boom"),
        row("a/passes", cc=NEW),
    ])  # fmt: skip
    return load(tmp_path)


def fields(url: str) -> tuple[str, str]:
    parsed = urlparse(url)
    assert f"{parsed.scheme}://{parsed.netloc}{parsed.path}" == report.NEW_ISSUE
    query = parse_qs(parsed.query)
    return query["title"][0], query["body"][0]


def test_lookup_of_a_regression_names_its_cause_the_others_it_blocks_and_a_prefilled_report(snap, monkeypatch):
    monkeypatch.setenv("SPACE_HOST", "owner-space.hf.space")
    answer = details.lookup(snap, "a/regressed", NEW, "4.57.1")
    assert answer["cause"]["code"] == "NRT_RESOURCE" and answer["cause"]["shared_with"] == ["a/always"]
    assert answer["cause"]["docs"].endswith("/neuron-runtime/api/nrt_status.html")
    assert len(answer["report_url"].encode()) <= settings.REPORT_URL.value
    title, body = fields(answer["report_url"])
    assert title == "a/regressed fails on neuronx-cc 2.28.7631.0: NRT_RESOURCE"
    assert "trn2.3xlarge" not in body and answer["instance"] in body  # 8 cores: a bigger instance
    assert f"neuronx-cc=={NEW}" in body and "torch-neuronx==" in body and "transformers==4.57.1" in body
    assert answer["install_command"] in body
    assert f"last passed on neuronx-cc {OLD} with Transformers 4.57.1" in body
    assert "on nd0 nc5 (prefill)" in body  # the error's last lines, as they were
    assert "https://owner-space.hf.space/?model=a%2Fregressed&neuronx_cc=2.28.7631.0%2B82129205" in body


def test_without_space_host_the_report_leaves_the_link_out_and_a_non_regression_says_so(snap, monkeypatch):
    monkeypatch.delenv("SPACE_HOST", raising=False)
    _, body = fields(details.lookup(snap, "a/always", NEW, "")["report_url"])
    assert "https://owner" not in body and "?model=" not in body
    assert "Not a known regression" in body
    monkeypatch.setenv("SPACE_HOST", "evil.example/<script>")  # not a host name: left out too
    assert links.space_url() is None


def test_a_huge_error_is_trimmed_from_its_oldest_lines_to_keep_the_report_within_8_kb(snap):
    answer = details.lookup(snap, "a/huge", NEW, "")
    url = answer["report_url"]
    assert len(url.encode()) <= settings.REPORT_URL.value
    _, body = fields(url)
    assert body.rstrip("`\n").endswith("RuntimeError: boom")
    assert "frame 0 " not in body and "frame 4999 " in body


def test_a_report_of_huge_values_is_cut_to_8_kb_and_backticks_cannot_close_its_code_block():
    answer = {"model_id": "a/m", "neuronx_cc": "2.28", "error": "x\n```\n<b>y</b>", "install_command": "p" * 20_000}
    url = report.report_url(answer, {"code": "E", "summary": "s", "example": "s", "signature": "v1-x"}, None, None)
    assert len(url.encode()) <= settings.REPORT_URL.value
    _, body = fields(
        report.report_url({**answer, "install_command": "pip"}, {"summary": "s", "example": "s"}, None, None)
    )
    assert "````\nx\n```\n<b>y</b>\n````" in body


def test_a_model_that_did_not_fail_has_neither_cause_nor_report(snap):
    for model in ("a/passes", "nobody/untested"):
        answer = details.lookup(snap, model, NEW, "")
        assert "cause" not in answer and "report_url" not in answer


def test_compare_regressions_carry_their_cause(snap):
    stack_a, stack_b = compare.resolve_pair(snap, OLD, "", NEW, "")
    answer = compare.compare(snap, stack_a, stack_b)
    (regression,) = answer["regressions"]
    assert regression["model_id"] == "a/regressed"
    assert regression["cause"]["code"] == "NRT_RESOURCE"
    assert set(regression["cause"]) == {"signature", "code", "summary", "example", "docs"}


def test_the_report_of_another_librarys_run_does_not_say_it_generated_tokens(tmp_path):
    write(tmp_path / "diffusers.parquet", [
        row("a/pipeline", cc=NEW, library="diffusers", lib_version="0.36.0", result="FAIL", error=ERROR.format(core=0)),
    ])  # fmt: skip
    write(tmp_path / "text.parquet", [row("a/text", cc=NEW, result="FAIL", error=ERROR.format(core=0))])
    snap = load(tmp_path)
    _, body = fields(details.lookup(snap, "a/pipeline", NEW, "diffusers==0.36.0")["report_url"])
    assert "the model loaded and run with Diffusers's own code" in body and "tokens" not in body
    _, body = fields(details.lookup(snap, "a/text", NEW, "4.57.1")["report_url"])
    assert "32 tokens generated" in body
