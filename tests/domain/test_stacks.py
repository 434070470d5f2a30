"""One stack resolver: what a person or a program asks for, and the stack it gets (or a clear no)."""

import pytest

from components.domain.stacks import (
    StackRef,
    UnknownStack,
    library_name,
    library_spec,
    picker_choices,
    split_spec,
)
from components.queries import details
from components.sources.dataset import load
from tests.helpers import NEW_CC, OLD_CC, row, write


@pytest.fixture
def four_libraries(tmp_path):
    """Transformers 5.0.0 and 4.57.1, diffusers 0.36.0 and sentence-transformers 5.1.2 on the newest
    compiler; Transformers 4.50.0 on an older one."""
    write(tmp_path / "t5.parquet", [row("Qwen/Qwen3-0.6B", cc=NEW_CC, lib_version="5.0.0")])
    write(tmp_path / "t4.parquet", [row("Qwen/Qwen3-0.6B", cc=NEW_CC, lib_version="4.57.1", result="FAIL")])
    write(tmp_path / "d.parquet", [row("stabilityai/sd-turbo", cc=NEW_CC, lib_version="0.36.0", library="diffusers")])
    write(
        tmp_path / "st.parquet",
        [row("BAAI/bge-small-en-v1.5", cc=NEW_CC, lib_version="5.1.2", library="sentence-transformers")],
    )
    write(tmp_path / "old.parquet", [row("Qwen/Qwen3-0.6B", cc=OLD_CC, lib_version="4.50.0")])
    return load(tmp_path)


def key(stack):
    return (stack.neuronx_cc, stack.library, stack.library_version)


def test_transformers_comes_first_and_the_empty_stack_is_the_newest(four_libraries):
    assert [key(s) for s in four_libraries.stacks] == [
        (NEW_CC, "transformers", "5.0.0"),
        (NEW_CC, "transformers", "4.57.1"),
        (NEW_CC, "diffusers", "0.36.0"),
        (NEW_CC, "sentence-transformers", "5.1.2"),
        (OLD_CC, "transformers", "4.50.0"),
    ]
    assert four_libraries.resolve_stack("", "") == four_libraries.stacks[0]
    assert four_libraries.resolve_stack(NEW_CC, "") == four_libraries.stacks[0]


def test_versions_without_their_local_tag_and_library_pins_match(four_libraries):
    assert key(four_libraries.resolve_stack("2.9.1.0", "")) == (OLD_CC, "transformers", "4.50.0")
    assert key(four_libraries.resolve_stack("2.28.7631.0", "4.57.1")) == (NEW_CC, "transformers", "4.57.1")
    assert key(four_libraries.resolve_stack("", "0.36.0")) == (
        NEW_CC,
        "diffusers",
        "0.36.0",
    )  # the library whose version matches
    assert key(four_libraries.resolve_stack("", "diffusers==0.36.0")) == (NEW_CC, "diffusers", "0.36.0")
    assert key(four_libraries.resolve_stack("", "Sentence_Transformers==5.1.2")) == (
        NEW_CC,
        "sentence-transformers",
        "5.1.2",
    )
    assert key(four_libraries.resolve_stack("", "4.50.0")) == (
        OLD_CC,
        "transformers",
        "4.50.0",
    )  # newest compiler that has it
    for stack in four_libraries.stacks:  # the spec the page and links use names exactly one stack
        assert four_libraries.resolve_stack(stack.neuronx_cc, stack.spec) == stack


@pytest.mark.parametrize(
    "cc, lv",
    [
        ("2.99.0", "9.9"),
        ("2.99.0", ""),
        (NEW_CC, "9.9"),  # a known compiler with an unknown library version
        (OLD_CC, "5.0.0"),  # both known, never together
        ("", "diffusers==5.0.0"),  # a version of another library
        ("2.28.7631.0+ffffffff", ""),  # another local tag is another build
    ],
)
def test_an_unknown_stack_is_a_clear_no_naming_the_known_ones(four_libraries, cc, lv):
    with pytest.raises(UnknownStack) as raised:
        four_libraries.resolve_stack(cc, lv)
    message = str(raised.value)
    assert "No tested stack matches" in message
    assert f"{NEW_CC} with diffusers==0.36.0" in message and f"{OLD_CC} with transformers==4.50.0" in message


def test_the_page_falls_back_to_a_default_for_an_unknown_stack(four_libraries):
    assert four_libraries.stack_or_default("2.99.0", "9.9") == four_libraries.stacks[0]
    assert key(four_libraries.stack_or_default(OLD_CC, "9.9")) == (OLD_CC, "transformers", "4.50.0")


def test_an_unknown_version_of_a_named_library_falls_back_to_its_newest_on_the_compiler(four_libraries):
    assert key(four_libraries.stack_or_default(NEW_CC, "sentence-transformers==5.0.0")) == (
        NEW_CC,
        "sentence-transformers",
        "5.1.2",
    )
    assert key(four_libraries.stack_or_default(OLD_CC, "diffusers==0.36.0")) == (OLD_CC, "transformers", "4.50.0")


def test_a_stack_writes_its_spec_and_picker_value_and_reads_them_back(four_libraries):
    assert [s.spec for s in four_libraries.stacks[1:4]] == [
        "4.57.1",
        "diffusers==0.36.0",
        "sentence-transformers==5.1.2",
    ]
    assert library_spec("Transformers", "4.57.1") == "4.57.1" and library_spec("", "4.57.1") == "4.57.1"
    assert (
        library_spec("diffusers", "") == "diffusers==" and library_spec("diffusers==0.36.0", "x") == "diffusers==0.36.0"
    )
    assert split_spec("diffusers==0.36.0") == ("diffusers", "0.36.0") and split_spec("4.57.1") == ("", "4.57.1")
    for stack in four_libraries.stacks:
        assert StackRef.parse(stack.picker_value) == stack.ref and StackRef.parse(stack.picker_value).spec == stack.spec
        assert four_libraries.picker_stack(stack.picker_value) == stack
        assert library_spec(*split_spec(stack.spec)) == stack.spec
    assert [v for _, v in picker_choices(four_libraries.stacks)] == [s.picker_value for s in four_libraries.stacks]
    assert picker_choices(four_libraries.stacks)[0][0].endswith("(newest)")


def test_a_picker_value_no_longer_in_the_data_falls_back_and_no_value_takes_the_default(four_libraries):
    gone = "neuronx_cc=2.99.0&library=diffusers&library_version=0.1"
    assert four_libraries.picker_stack(gone) == four_libraries.stacks[0]
    assert (
        four_libraries.picker_stack("", four_libraries.stacks[4]) == four_libraries.stacks[4]
        and four_libraries.picker_stack(None) == four_libraries.stacks[0]
    )
    assert four_libraries.picker_stack("not a value at all") == four_libraries.stacks[0]


def test_lookup_on_an_unknown_stack_is_not_tested_and_names_it(four_libraries):
    answer = details.lookup(four_libraries, "Qwen/Qwen3-0.6B", "2.99.0", "9.9")
    assert answer["result"] == "not tested"
    assert answer["neuronx_cc"] == "2.99.0" and answer["library_version"] == "9.9"
    assert "neuronx-cc 2.99.0 with library version 9.9" in answer["unknown_stack"]
    assert "install_command" not in answer  # nothing from another stack's row
    assert details.lookup(four_libraries, "Qwen/Qwen3-0.6B", "2.28.7631.0", "4.57.1")["result"] == "FAIL"


def test_the_stack_label(four_libraries):
    assert four_libraries.stacks[2].label == "neuronx-cc 2.28.7631.0 · Diffusers 0.36.0"
    assert four_libraries.stacks[2].long_label == f"neuronx-cc {NEW_CC} with Diffusers 0.36.0"
    assert str(four_libraries.stacks[2].ref) == four_libraries.stacks[2].label


def test_a_library_reads_by_its_projects_name_and_its_values_keep_pips_spelling(four_libraries):
    assert [library_name(s) for s in ("transformers", "diffusers", "Sentence_Transformers", "", "timm")] == [
        "Transformers", "Diffusers", "Sentence Transformers", "Transformers", "timm"
    ]  # fmt: skip
    minilm = next(s for s in four_libraries.stacks if s.library == "sentence-transformers")
    assert minilm.label == "neuronx-cc 2.28.7631.0 · Sentence Transformers 5.1.2"
    assert (
        minilm.as_dict()["library"] == "sentence-transformers"
        and "library=sentence-transformers" in minilm.picker_value
    )


def test_a_reference_is_hashable_and_a_stack_gives_its_own():
    stack = StackRef("2.28.7631.0", "transformers", "4.57.1")
    assert {stack: 1}[StackRef("2.28.7631.0", "transformers", "4.57.1")] == 1
    assert StackRef.of({"neuronx_cc": "2.28.7631.0", "library": "transformers", "library_version": "4.57.1"}) == stack


def spec(**params):
    return StackRef.from_params(params).spec


def test_link_values_name_the_stack_as_deep_links_do():
    assert spec(library="diffusers", library_version="0.36.0") == "diffusers==0.36.0"
    assert spec(library="diffusers") == "diffusers=="
    assert spec(transformers="4.57.1") == "4.57.1"
    assert spec() == ""
    assert spec(library="diffusers==0.36.0", library_version="x") == "diffusers==0.36.0"
    assert spec(library_version=["not", "text"], transformers="x" * 10_000) == "x" * 200


def test_link_parameters_both_ways(four_libraries):
    for stack in four_libraries.stacks:
        for explicit in (False, True):
            back = StackRef.from_params(dict(stack.params(explicit)))
            assert four_libraries.resolve_stack(back.neuronx_cc, back.spec) == stack
    assert four_libraries.stacks[1].params() == [("neuronx_cc", NEW_CC), ("transformers", "4.57.1")]
    assert four_libraries.stacks[2].params() == [
        ("neuronx_cc", NEW_CC),
        ("library", "diffusers"),
        ("library_version", "0.36.0"),
    ]
    assert StackRef.asked("", "diffusers==").params() == [("library", "diffusers")]
