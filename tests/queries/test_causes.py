"""components/queries/causes.py: a FAIL's error text reduced to a cause, its signature and its docs."""

from __future__ import annotations

import re

import pytest

from components.queries import causes
from components.queries.causes import NO_ERROR_TEXT, cause_of, mask
from components.runtime import settings
from tests.queries.tracebacks import eoom, nrt, python_error


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
    assert causes.docs_link("RuntimeError") is None
    assert causes.docs_link(None) is None


# ---- no error text, hostile error text ---------------------------------------------------------------


@pytest.mark.parametrize("text", [None, "", "   \n\t\n", float("nan")])
def test_a_fail_without_error_text_is_a_cause_of_its_own(text):
    cause = cause_of(text)
    assert cause.summary == NO_ERROR_TEXT and cause.code is None and cause.docs is None
    assert cause.signature == cause_of(None).signature != cause_of("RuntimeError: x").signature


def test_hostile_error_text_gives_a_short_clean_cause():
    huge = "RuntimeError: " + "A" * 5_000_000
    cause = cause_of(huge)
    assert cause.code == "RuntimeError" and len(cause.summary) <= settings.CAUSE_SUMMARY.value
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
