"""components/queries/failures.py: a FAIL's error text reduced to a cause, and the causes on a stack."""

from __future__ import annotations

import re

import pytest

from components.domain.results import FAIL
from components.queries import failures
from components.queries.failures import NO_ERROR_TEXT, cause_of, mask
from components.sources.dataset import SAMPLE_DIR, load
from tests.helpers import row, write

OLD, MID, NEW = "2.24.5133.0+58f8de22", "2.26.9117.0+c4d2e7a1", "2.28.7631.0+82129205"


def nrt(status: str, graph: int, core: int, pid: int, phase: str = "prefill", site: str = "/opt/venv") -> str:
    """A runtime failure as torch-neuronx reports it, with its run-to-run details as given."""
    return (
        f"2026-Oct-26 09:15:35.0000 {pid}:{pid + 57} ERROR  NRT:nrt_execute  nd0 nc{core}: execution of "
        f"'model_forward_{graph}' failed: {status}\n"
        "Traceback (most recent call last):\n"
        f'  File "{site}/lib/python3.11/site-packages/torch_neuronx/runtime/executor.py", line {200 + graph}, '
        "in execute\n"
        "    raise NeuronRuntimeError(status, self.graph_name, core)\n"
        f"torch_neuronx.runtime.NeuronRuntimeError: {status} while executing 'model_forward_{graph}' "
        f"on nd{core // 4} nc{core} ({phase})\n"
    )


def eoom(need: float, cores: int, module: str, log_dir: str = "/var/tmp/neuron-compile-cache") -> str:
    return (
        "torch._dynamo.exc.BackendCompilerFailed: backend='neuron' raised:\n"
        f"CompilationError: neuronx-cc 2.28.7631.0 failed with exit code 70 compiling graph 'model_forward_1'\n"
        f"  log: {log_dir}/neuronxcc-2.28.7631.0+82129205/MODULE_{module}/log-neuron-cc.txt\n"
        f"ERROR {cores * 1000 + 7} [neuronx-cc]: [NCC_EOOM001] Out of memory: the graph needs an estimated "
        f"{need} GB of HBM on each of {cores} logical cores, but only 24.00 GB are available.\n"
        "  Shard the model over more cores, or reduce the static cache length.\n"
    )


def python_error(message: str, line: int, path: str = "/home/ubuntu/harness/work/run.py") -> str:
    return f'Traceback (most recent call last):\n  File "{path}", line {line}, in <module>\n    main()\n{message}\n'


# ---- masking: the same failure with other run-to-run details is one cause ----------------------------


def test_runtime_failures_differing_in_core_graph_phase_pid_and_paths_are_one_cause():
    a = cause_of(nrt("NRT_RESOURCE (4)", graph=1, core=0, pid=43307))
    b = cause_of(nrt("NRT_RESOURCE (4)", graph=2, core=13, pid=9, phase="decode step 1", site="/home/me/venv"))
    assert a == b
    assert a.code == "NRT_RESOURCE"
    assert a.docs == "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/neuron-runtime/api/nrt_status.html"
    assert "NRT_RESOURCE" in a.summary and "status 4" in a.summary


def test_compiler_failures_differing_in_sizes_cores_module_hash_and_log_path_are_one_cause():
    a = cause_of(eoom(28.66, 16, "979ab7ba7e64774d"))
    b = cause_of(eoom(131.2, 4, "0123abcd4567ef89", log_dir="/tmp/other cache"))
    assert a == b
    assert a.code == "NCC_EOOM001"
    assert a.docs == "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/compiler/error-codes/EOOM001.html"
    assert a.summary.startswith("NCC_EOOM001: Out of memory")
    assert "28.66" not in a.summary and "16 logical" not in a.summary


def test_python_errors_differing_in_numbers_paths_addresses_and_line_numbers_are_one_cause():
    texts = [
        python_error("RuntimeError: shape '[1, -1, 32, 128]' is invalid for input of size 69632", 52),
        python_error("RuntimeError: shape '[1, -1, 8, 128]' is invalid for input of size 26112", 49, "/x/y/run.py"),
    ]
    assert len({cause_of(t) for t in texts}) == 1
    addresses = [
        python_error(f"RuntimeError: tensor at 0x{a} on nc{c} freed twice (see {p}:{n})", n)
        for a, c, p, n in (("7f3a2c001000", 0, "/a/b/c.py", 12), ("55d0e1ab9f20", 7, "/opt/x/c.py", 907))
    ]
    assert cause_of(addresses[0]) == cause_of(addresses[1])
    assert "0x7f3a" not in cause_of(addresses[0]).summary


def test_the_innermost_exception_names_the_cause_of_a_chained_or_spawned_traceback():
    text = (
        "torch.multiprocessing.spawn.ProcessRaisedException: \n\n-- Process 4 terminated with the following error:\n"
        + python_error("torch._dynamo.exc.Unsupported: Data-dependent branching", 12)
        + "  Explanation: Detected data-dependent branching.\n  Hint: Consider finding a workaround.\n"
    )
    cause = cause_of(text)
    assert cause.code == "torch._dynamo.exc.Unsupported"
    assert cause.summary == "Unsupported: Data-dependent branching"
    assert cause.docs is None


def test_mask_keeps_names_with_digits_and_masks_what_changes():
    assert mask("expected float != c10::BFloat16 for bf16[4096,128] on nd1 nc12") == (
        "expected float != c10::BFloat16 for bf16[N] on ndN ncN"
    )
    assert mask("'model_forward_2' at /home/u/x.py:31 id 5f2c9e0a11bb") == "'model_forward_N' at <path>:N id <hex>"
    long_value = "x" * 100
    assert mask(f"output: '{long_value}'") == "output: '…'"


# ---- separation: different codes stay apart ---------------------------------------------------------


def test_different_codes_and_different_exceptions_are_different_causes():
    causes = {
        cause_of(nrt("NRT_RESOURCE (4)", 1, 0, 1)),
        cause_of(nrt("NRT_TIMEOUT (5)", 1, 0, 1)),
        cause_of(nrt("NRT_EXEC_HW_ERR_HBM_UE (1201)", 1, 0, 1)),
        cause_of(eoom(30.0, 4, "abcdef0123456789")),
        cause_of(eoom(30.0, 4, "abcdef0123456789").replace("NCC_EOOM001", "NCC_EVRF007")),
        cause_of(python_error("RuntimeError: shape '[1, -1]' is invalid for input of size 3", 5)),
        cause_of(python_error("IndexError: shape '[1, -1]' is invalid for input of size 3", 5)),
        cause_of(python_error("RuntimeError: expected mat1 and mat2 to have the same dtype", 5)),
    }
    assert len(causes) == 8
    assert len({c.signature for c in causes}) == 8


def test_a_compiler_code_without_a_page_of_its_own_links_the_index_and_an_unknown_word_links_nothing():
    assert cause_of("ERROR [neuronx-cc]: [NCC_EZZZ999] something new").docs.endswith("/error-codes/index.html")
    assert failures.docs_link("RuntimeError") is None
    assert failures.docs_link(None) is None


# ---- no error text, hostile error text ---------------------------------------------------------------


@pytest.mark.parametrize("text", [None, "", "   \n\t\n", float("nan")])
def test_a_fail_without_error_text_is_a_cause_of_its_own(text):
    cause = cause_of(text)
    assert cause.summary == NO_ERROR_TEXT and cause.code is None and cause.docs is None
    assert cause.signature == cause_of(None).signature != cause_of("RuntimeError: x").signature


def test_hostile_error_text_gives_a_short_clean_cause():
    huge = "RuntimeError: " + "A" * 5_000_000
    cause = cause_of(huge)
    assert cause.code == "RuntimeError" and len(cause.summary) <= failures.MAX_SUMMARY
    markup = cause_of("ValueError: <script>alert(1)</script><img src=x onerror=alert(2)>")
    assert markup.code == "ValueError"  # kept as text: the web layer escapes it
    controls = cause_of("Runtime\x00Error: bad\x1b[31m red\u202e\x07 text\r\nKeyError: 'k'\x00")
    assert not re.search(r"[\x00-\x1f\x7f\u202e]", controls.summary + controls.line)
    assert controls.code == "KeyError"
    many_lines = "\n".join(f"line {i}" for i in range(200_000)) + "\nOSError: disk full"
    assert cause_of(many_lines).code == "OSError"
    named = cause_of("x" * 500 + "Error: a line of data\nTypeError: the real one")
    assert named.code == "TypeError"
    assert cause_of("A" * 500 + "Error: only data").code is None


def test_text_without_an_exception_line_is_reduced_to_its_last_line():
    cause = cause_of("starting\nloading shards 3/8\nKilled (signal 9) after 3605 s\n")
    assert cause.code is None and cause.summary == "Killed (signal N) after N s"


# ---- over a dataset the test makes: every FAIL in one cause, stable across stacks ---------------------


@pytest.fixture
def snap(tmp_path):
    write(tmp_path / "old.parquet", [
        row("a/oom", cc=OLD, result="FAIL", error=nrt("NRT_RESOURCE (4)", 1, 0, 100)),
        row("a/fixed", cc=OLD, result="FAIL", error=nrt("NRT_RESOURCE (4)", 2, 3, 200)),
        row("a/regressed", cc=OLD),
        row("a/shape", cc=OLD, result="FAIL", error=python_error("RuntimeError: shape '[1, 2]' bad size 9", 3)),
    ])  # fmt: skip
    write(tmp_path / "mid.parquet", [
        row("a/oom", cc=MID, result="FAIL", error=nrt("NRT_RESOURCE (4)", 2, 5, 7, "decode step 1")),
        row("a/fixed", cc=MID),
        row("a/regressed", cc=MID),
        row("a/shape", cc=MID, result="FAIL", error=python_error("RuntimeError: shape '[1, 8]' bad size 4", 9)),
    ])  # fmt: skip
    write(tmp_path / "new.parquet", [
        row("a/oom", cc=NEW, result="FAIL", error=nrt("NRT_RESOURCE (4)", 1, 9, 31337)),
        row("a/fixed", cc=NEW),
        row("a/regressed", cc=NEW, result="FAIL", error=nrt("NRT_RESOURCE (4)", 1, 2, 3)),
        row("a/shape", cc=NEW, result="FAIL", error=None),
        row("a/also-no-text", cc=NEW, result="FAIL", error="  "),
        row("a/weird", cc=NEW, result="FAIL", error=eoom(40.5, 8, "feedface01234567")),
        row("a/excluded", cc=NEW, result="EXCLUDED", exclusion="too big", error="RuntimeError: ignored"),
    ])  # fmt: skip
    return load(tmp_path)


def stack(snapshot, cc):
    return snapshot.resolve_stack(cc, "")


def test_every_fail_on_a_stack_is_in_exactly_one_cause(snap):
    for s in snap.stacks:
        answer = failures.failures(snap, s)
        listed = [m for c in answer["causes"] for m in c["models"]]
        positions = snap.stack_positions(s)
        fails = sorted(str(snap.rows["model_id"].iat[p]) for p in positions if snap.kind[p] == FAIL)
        assert sorted(listed) == fails
        assert len(listed) == len(set(listed)) == answer["failed"]
        assert [c["count"] for c in answer["causes"]] == sorted((c["count"] for c in answer["causes"]), reverse=True)
        assert all(c["count"] == len(c["models"]) for c in answer["causes"])


def test_the_newest_stack_ranks_causes_by_models_blocked_and_says_where_each_was_first_seen(snap):
    answer = failures.failures(snap, stack(snap, NEW))
    assert answer["stack"]["neuronx_cc"] == NEW and answer["failed"] == 5
    top, *rest = answer["causes"]
    assert top["code"] == "NRT_RESOURCE" and top["models"] == ["a/oom", "a/regressed"] and top["count"] == 2
    assert top["first_seen"]["neuronx_cc"] == OLD  # first blocked a model on the oldest stack
    no_text = next(c for c in rest if c["summary"] == NO_ERROR_TEXT)
    assert no_text["models"] == ["a/also-no-text", "a/shape"] and no_text["first_seen"]["neuronx_cc"] == NEW
    assert {c["code"] for c in rest} == {None, "NCC_EOOM001"}


def test_signatures_hold_across_stacks_and_fixed_in_names_the_newer_stacks_where_models_pass(snap):
    by_stack = {s.neuronx_cc: failures.failures(snap, s) for s in snap.stacks}
    signature = {cc: {c["code"]: c["signature"] for c in a["causes"]} for cc, a in by_stack.items()}
    assert signature[OLD]["NRT_RESOURCE"] == signature[MID]["NRT_RESOURCE"] == signature[NEW]["NRT_RESOURCE"]
    assert signature[OLD]["RuntimeError"] == signature[MID]["RuntimeError"]  # other shape, other line number
    old_oom = next(c for c in by_stack[OLD]["causes"] if c["code"] == "NRT_RESOURCE")
    assert old_oom["models"] == ["a/fixed", "a/oom"]
    assert [(f["neuronx_cc"], f["models"]) for f in old_oom["fixed_in"]] == [(NEW, ["a/fixed"]), (MID, ["a/fixed"])]


def test_the_cause_of_one_model_names_the_others_it_blocks(snap):
    new = stack(snap, NEW)
    cause = failures.cause_on_stack(snap, new, "a/regressed")
    assert cause["code"] == "NRT_RESOURCE" and cause["shared_with"] == ["a/oom"]
    assert set(cause) == {"signature", "code", "summary", "docs", "shared_with"}
    assert failures.cause_on_stack(snap, new, "a/fixed") is None  # passed
    assert failures.cause_on_stack(snap, new, "a/excluded") is None  # excluded, not failed
    assert failures.cause_on_stack(snap, new, "nobody/ran-this") is None


def test_causes_are_computed_once_per_snapshot_one_stack_at_a_time(snap, monkeypatch):
    new = stack(snap, NEW)
    first = failures.stack_causes(snap, new)
    calls = []
    real = failures.cause_of
    monkeypatch.setattr(failures, "cause_of", lambda text: calls.append(text) or real(text))
    assert failures.stack_causes(snap, new) is first and calls == []
    failures.cause_on_stack(snap, new, "a/oom")  # a failed model's panel: its own stack only
    assert calls == []
    failures.stack_causes(snap, stack(snap, MID))
    assert len(calls) == 2  # the other stack's two distinct texts, once each


def test_across_stacks_counts_models_blocked_by_the_top_causes_oldest_stack_first(snap):
    chart = failures.across_stacks(snap)
    assert [s["neuronx_cc"] for s in chart["stacks"]] == [OLD, MID, NEW]
    oom = next(c for c in chart["causes"] if c["code"] == "NRT_RESOURCE")
    assert oom["counts"] == [2, 1, 2] and chart["causes"][0] is oom


def test_the_bundled_sample_reduces_to_about_a_dozen_causes():
    snapshot = load(SAMPLE_DIR)
    signatures, failed = set(), 0
    for s in snapshot.stacks:
        found = failures.stack_causes(snapshot, s)
        signatures |= {c.signature for c in found.causes}
        failed += len(found.by_model)
    assert failed == (snapshot.kind == FAIL).sum() > 250
    assert 8 <= len(signatures) <= 25
