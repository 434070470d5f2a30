"""`data/update_front_matter.py`: the README's `models:` lists the tested models, everything else stays byte for byte."""

import yaml

from components.sources.dataset import load
from data import update_front_matter as front
from tests.helpers import NEW_CC, OLD_CC, row, write

README = """---
title: torch-neuronx model support
sdk: gradio
datasets:
  - aws-neuron/torch-neuronx-model-support
models:
- old/gone
- old/also-gone

tags:
  - trainium
---

# The app

models:
  - not/front-matter
"""


def dataset(tmp_path):
    write(tmp_path / "data" / "new.parquet", [
        row("Org/b-model", cc=NEW_CC),
        row("org/a-model", cc=NEW_CC, result="FAIL", error="boom"),
        row("org/only-excluded", cc=NEW_CC, result="EXCLUDED", exclusion="too large"),
        row("1e3", cc=NEW_CC),
        row("aaa/fails-only", cc=NEW_CC, result="FAIL", error="boom"),
    ])  # fmt: skip
    write(tmp_path / "data" / "old.parquet", [row("org/a-model", cc=OLD_CC, lib_version="4.50.0")])
    return tmp_path / "data"


def test_the_script_lists_the_tested_models_and_keeps_the_rest(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_bytes(README.encode("utf-8"))
    assert front.main(["--dataset", str(dataset(tmp_path)), "--readme", str(readme)]) == 0
    text = readme.read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    assert meta["models"] == [
        "1e3",
        "aaa/fails-only",
        "org/a-model",
        "Org/b-model",
    ]  # sorted, unique, excluded-only left out
    assert {k: v for k, v in meta.items() if k != "models"} == {
        "title": "torch-neuronx model support", "sdk": "gradio",
        "datasets": ["aws-neuron/torch-neuronx-model-support"], "tags": ["trainium"],
    }  # fmt: skip
    before, after = (
        README.split("models:\n- old/gone\n- old/also-gone\n"),
        text.split('models:\n  - "1e3"\n  - aaa/fails-only\n  - org/a-model\n  - Org/b-model\n'),
    )
    assert before == after  # every other byte as it was, the body's own "models:" included
    assert front.main(["--dataset", str(dataset(tmp_path)), "--readme", str(readme)]) == 0
    assert readme.read_text(encoding="utf-8") == text  # a second run changes nothing


def test_a_readme_without_the_key_gets_it_at_the_end_of_its_front_matter():
    assert front.rewrite("---\ntitle: x\n---\nbody\n", ["a/b"]) == "---\ntitle: x\nmodels:\n  - a/b\n---\nbody\n"
    assert front.rewrite("---\r\ntitle: x\r\nmodels: []\r\n---\r\n", ["a/b"]) == (
        "---\r\ntitle: x\r\nmodels:\r\n  - a/b\r\n---\r\n"
    )


def test_past_the_cap_passing_models_are_kept_first(tmp_path):
    snapshot = load(dataset(tmp_path))
    assert front.tested_models(snapshot) == ["1e3", "aaa/fails-only", "org/a-model", "Org/b-model"]
    assert front.tested_models(snapshot, limit=3) == ["1e3", "org/a-model", "Org/b-model"]  # each passes somewhere
    assert front.tested_models(snapshot, limit=1) == ["1e3"]


def test_no_front_matter_is_an_error_and_the_readme_is_untouched(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("# no front matter\n")
    assert front.main(["--dataset", str(dataset(tmp_path)), "--readme", str(readme)]) == 1
    assert readme.read_text() == "# no front matter\n" and "front matter" in capsys.readouterr().err
