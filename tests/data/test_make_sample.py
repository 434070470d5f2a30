"""data/make_sample.py: the bundled sample dataset, the rankings snapshot and the synthetic writer."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from packaging.version import Version

from data import catalogue
from data import make_sample as ms
from tests.helpers import ROOT

STACK_COLUMNS = [
    "neuronx_cc",
    "library_version",
    "transformers",
    "accelerate",
    "torch_neuronx",
    "torch",
    "nki",
    "python",
    "neuron_driver",
]


def _cc_version(cc: str) -> Version:
    return Version(cc.split("+")[0])


@pytest.fixture(scope="module")
def sample_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sample")
    ms.write_sample(out)
    return out


@pytest.fixture(scope="module")
def frames(sample_dir) -> dict[str, pd.DataFrame]:
    return {p.name: pq.read_table(p).to_pandas() for p in sorted(sample_dir.glob("*.parquet"))}


@pytest.fixture(scope="module")
def rows(frames) -> pd.DataFrame:
    """The Transformers rows (the files of other libraries have tests of their own)."""
    return pd.concat([f for f in frames.values() if set(f["library"]) == {"transformers"}], ignore_index=True)


@pytest.fixture(scope="module")
def latest(rows) -> pd.DataFrame:
    """One row per model and stack: the newest run."""
    return rows.sort_values("tested_at").drop_duplicates(["model_id", "neuronx_cc", "library_version"], keep="last")


@pytest.fixture(scope="module")
def rankings_json(tmp_path_factory) -> dict:
    path = ms.write_rankings_snapshot(tmp_path_factory.mktemp("rankings") / "rankings_snapshot.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_sample_and_snapshot_are_byte_identical_across_runs(tmp_path, sample_dir):
    again = tmp_path / "again"
    ms.write_sample(again)
    names = sorted(p.name for p in sample_dir.glob("*.parquet"))
    assert names == sorted(p.name for p in again.glob("*.parquet"))
    for name in names:
        assert (sample_dir / name).read_bytes() == (again / name).read_bytes(), name
    first = ms.write_rankings_snapshot(tmp_path / "a.json").read_bytes()
    assert first == ms.write_rankings_snapshot(tmp_path / "b.json").read_bytes()


def test_one_file_per_stack_named_after_it(sample_dir, frames):
    assert len(frames) == len(catalogue.ALL_STACKS) == len(catalogue.SAMPLE_STACKS) + 2
    for stack in catalogue.ALL_STACKS:
        frame = frames[stack.file_name]
        assert stack.file_name == f"neuronxcc-{stack.neuronx_cc}_{stack.library}-{stack.library_version}.parquet"
        version_column = stack.library.replace("-", "_")
        for column in [*STACK_COLUMNS, version_column]:
            assert frame[column].nunique() == 1, (stack.file_name, column)
        assert frame["neuronx_cc"].iloc[0] == stack.neuronx_cc
        assert frame["library_version"].iloc[0] == frame[version_column].iloc[0] == stack.library_version
        assert set(frame["library"]) == {stack.library}


@pytest.mark.parametrize(
    ("file_name", "version_column", "pipeline", "failing"),
    [
        (
            "neuronxcc-2.28.7631.0+82129205_diffusers-0.36.0.parquet",
            "diffusers",
            "DiffusionPipeline.from_pretrained(MODEL_ID",
            "black-forest-labs/FLUX.1-schnell",
        ),
        (
            "neuronxcc-2.28.7631.0+82129205_sentence-transformers-5.1.2.parquet",
            "sentence_transformers",
            'SentenceTransformer(MODEL_ID, device="neuron"',
            "nomic-ai/nomic-embed-text-v1.5",
        ),
    ],
)
def test_made_up_library_files(sample_dir, frames, file_name, version_column, pipeline, failing):
    schema = pq.read_schema(sample_dir / file_name)
    frame = frames[file_name]
    cores = "neuron_cores" if version_column == "sentence_transformers" else "tp"  # the dataset's documented alias
    assert cores in schema.names and ({"tp", "neuron_cores"} - {cores}).isdisjoint(schema.names)
    assert schema.field(cores).type == pa.int32() and list(frame[cores]) == [1] * len(frame)
    assert schema.field(version_column).type == pa.string()
    assert 4 <= len(frame) <= 6 and frame["model_id"].is_unique
    assert list(frame.loc[frame["result"] == "FAIL", "model_id"]) == [failing]
    assert set(frame["result"]) == {"PASS", "FAIL"}
    assert frame["error"].notna().eq(frame["result"] == "FAIL").all()
    assert frame["notes"].str.contains("made-up sample").all()
    for model_id, script in zip(frame["model_id"], frame["run_py"]):
        compile(script, "run.py", "exec")
        assert f'MODEL_ID = "{model_id}"' in script and pipeline in script and 'backend="neuron"' in script
    error = frame.loc[frame["result"] == "FAIL", "error"].iloc[0]
    assert error.startswith("Traceback (most recent call last):") and '/run.py", line' in error
    passed = frame[frame["result"] == "PASS"]
    assert (passed["hbm_peak_gb"] < passed["hbm_capacity_gb"]).all() and (passed["cpu_match"] == "match").all()
    assert frame["tested_at"].min() > frames[catalogue.SAMPLE_STACKS[-1].file_name]["tested_at"].max()


def test_schema_types_and_drift(sample_dir):
    for i, stack in enumerate(catalogue.SAMPLE_STACKS):
        schema = pq.read_schema(sample_dir / stack.file_name)
        assert ("exclusion" in schema.names) == (i >= 2), stack.file_name
        expected = {name: typ for name, typ in catalogue.COLUMNS if name in schema.names}
        assert {f.name: f.type for f in schema} == expected
        assert schema.field("tp").type == pa.int32()
        assert schema.field("wall_s").type == pa.int32()
        assert schema.field("hbm_peak_gb").type == pa.float64()
        assert schema.field("tested_at").type == pa.timestamp("ms", tz="UTC")
    for stack in catalogue.SAMPLE_STACKS[:2]:
        assert "exclusion" not in pq.read_schema(sample_dir / stack.file_name).names


def test_models_and_stacks_cover_the_brief(rows):
    assert rows["model_id"].nunique() >= 120
    for model_id in (
        "Qwen/Qwen3-0.6B",
        "meta-llama/Llama-3.2-1B-Instruct",
        "meta-llama/Llama-3.1-8B-Instruct",
        "meta-llama/Llama-3.3-70B-Instruct",
        "Qwen/Qwen3-30B-A3B",
        "Qwen/Qwen2.5-VL-7B-Instruct",
    ):
        assert model_id in set(rows["model_id"]), model_id
    ccs = sorted(set(rows["neuronx_cc"]), key=_cc_version)
    assert len(ccs) >= 4
    assert sorted(ccs) != ccs, "some compiler versions should sort differently as strings"
    newest = rows[rows["neuronx_cc"] == ccs[-1]]
    assert newest["library_version"].nunique() == 2
    assert (ccs[-1], max(newest["library_version"], key=Version)) == catalogue.NEWEST_STACK


def test_results_mix(rows):
    share = rows["result"].value_counts(normalize=True)
    assert set(share.index) == {"PASS", "FAIL", "EXCLUDED"}
    assert 0.4 <= share["PASS"] <= 0.7
    assert 0.05 <= share["EXCLUDED"] <= 0.15
    excluded = rows[rows["result"] == "EXCLUDED"]
    assert excluded["exclusion"].notna().all()
    assert excluded[["tp", "wall_s", "hbm_peak_gb", "hbm_capacity_gb", "run_py"]].isna().all().all()
    reasons = set(excluded["exclusion"])
    assert {"not prioritized", "custom code (trust_remote_code) not supported"} <= reasons
    tested = rows[rows["result"] != "EXCLUDED"]
    assert tested["exclusion"].isna().all()
    assert tested["error"].notna().eq(tested["result"] == "FAIL").all()


def test_cores_memory_and_checks_are_consistent(rows):
    tested = rows[rows["result"] != "EXCLUDED"]
    assert set(tested["tp"].astype(int)) <= {1, 2, 4, 8, 16}
    assert (tested["hbm_capacity_gb"] == tested["tp"] * 24.0).all()
    peaks = tested.dropna(subset=["hbm_peak_gb"])
    assert len(peaks) > len(tested) / 2
    assert (peaks["hbm_peak_gb"] < peaks["hbm_capacity_gb"]).all()
    assert (peaks["hbm_peak_gb"] > 0).all()
    for model_id, tp in zip(tested["model_id"], tested["tp"]):
        assert tp == catalogue.cores_for(catalogue.MODELS[model_id].params_b), model_id
    one_core = tested[tested["tp"] == 1]
    sharded = tested[tested["tp"] > 1]
    assert one_core["english"].isna().all() and sharded["cpu_match"].isna().all()
    assert set(one_core["cpu_match"].dropna()) == {"match", "mismatch"}
    assert set(sharded["english"].dropna()) == {"fluent", "not fluent"}
    assert (tested["runner"] == "single-core").eq(tested["tp"] == 1).all()
    assert "expert-parallel" in set(sharded["runner"])
    small = tested[(tested["tp"] == 1) & (tested["result"] == "PASS")]
    assert small["wall_s"].between(200, 1500).all()
    seventy = tested[(tested["model_id"] == "meta-llama/Llama-3.3-70B-Instruct") & (tested["result"] == "PASS")]
    assert seventy["wall_s"].between(3000, 6000).all()


def test_newer_compilers_were_tested_later(frames):
    spans = [
        (frames[s.file_name]["tested_at"].min(), frames[s.file_name]["tested_at"].max())
        for s in catalogue.SAMPLE_STACKS
    ]
    for (_, older_end), (newer_start, _) in itertools.pairwise(spans):
        assert older_end < newer_start


def test_run_py_is_a_runnable_recipe(rows):
    tested = rows[rows["result"] != "EXCLUDED"]
    assert (tested.groupby(["model_id", "tp"])["run_py"].nunique() == 1).all()
    for (model_id, tp), script in tested.groupby(["model_id", "tp"])["run_py"].first().items():
        compile(script, "run.py", "exec")
        assert f'MODEL_ID = "{model_id}"' in script and f"TP = {int(tp)}" in script
        assert 'backend="neuron"' in script and "static" in script and "MAX_NEW_TOKENS = 32" in script
        assert ("mp.spawn(" in script and 'tp_plan="auto"' in script) == (tp > 1)
        assert "torchrun" not in script.replace("no torchrun needed", "")
    lengths = tested["run_py"].str.len()
    assert lengths.between(1000, 3000).all()


def test_errors_read_like_real_failures(rows):
    errors = rows["error"].dropna()
    for marker in (
        "NCC_EOOM001",
        "NRT_",
        "Could not lower",
        "Traceback (most recent call last):",
        "generated tokens differ from CPU reference at position",
        "not fluent English",
    ):
        assert errors.str.contains(marker, regex=False).any(), marker
    assert errors.str.len().between(150, 5000).all()
    assert errors.str.contains("\n").mean() > 0.8


def test_expected_changes_between_stacks(latest):
    def results(cc, tf):
        stack = latest[(latest["neuronx_cc"] == cc) & (latest["library_version"] == tf)]
        return dict(zip(stack["model_id"], stack["result"]))

    for (cc_a, tf_a, cc_b, tf_b), expected in catalogue.EXPECTED_CHANGES.items():
        a, b = results(cc_a, tf_a), results(cc_b, tf_b)
        both = a.keys() & b.keys()
        assert {m for m in both if a[m] == "PASS" and b[m] == "FAIL"} == expected["regressions"]
        assert {m for m in both if a[m] == "FAIL" and b[m] == "PASS"} == expected["fixes"]
        assert b.keys() - a.keys() == expected["added"]
        assert a.keys() - b.keys() == expected["removed"]
        changed = {m for m in both if a[m] != b[m]}
        assert changed == expected["regressions"] | expected["fixes"]
    assert (
        catalogue.REGRESSIONS_NEWEST and catalogue.FIXES_NEWEST and catalogue.ADDED_NEWEST and catalogue.REMOVED_NEWEST
    )
    assert catalogue.COMPARE_NEWEST[2] == catalogue.SAMPLE_STACKS[-1].neuronx_cc


def test_rerun_keeps_both_rows_and_the_newer_one_passes(frames, latest):
    stack = next(
        s
        for s in catalogue.SAMPLE_STACKS
        if s.key == (catalogue.RERUN["neuronx_cc"], catalogue.RERUN["library_version"])
    )
    frame = frames[stack.file_name]
    runs = frame[frame["model_id"] == catalogue.RERUN["model_id"]]
    assert len(runs) == 2
    assert list(runs.sort_values("tested_at")["result"]) == list(catalogue.RERUN["results"])
    assert runs["tested_at"].iloc[0] > runs["tested_at"].iloc[1], "the newer row is written first"
    assert frame.duplicated(["model_id"]).sum() == 1
    won = latest[
        (latest["model_id"] == catalogue.RERUN["model_id"])
        & (latest["neuronx_cc"] == stack.neuronx_cc)
        & (latest["library_version"] == stack.transformers)
    ]
    assert list(won["result"]) == ["PASS"]


def test_models_come_and_go(frames):
    per_stack = [set(frames[s.file_name]["model_id"]) for s in catalogue.SAMPLE_STACKS]
    assert any(newer - older for older, newer in itertools.pairwise(per_stack))
    assert any(older - newer for older, newer in itertools.pairwise(per_stack))


def test_rankings_snapshot(rankings_json):
    assert rankings_json["fetched_at"] == "2026-11-30T06:00:00Z"
    assert "snapshot" in rankings_json["note"].lower()
    assert set(rankings_json["tasks"]) == {"text-generation", "image-text-to-text"}
    for task, by_ranking in rankings_json["tasks"].items():
        assert set(by_ranking) == {"trending", "downloads"}
        for ranking, entries in by_ranking.items():
            assert len(entries) >= 50, (task, ranking)
            assert [e["rank"] for e in entries] == list(range(1, len(entries) + 1))
            assert len({e["model_id"] for e in entries}) == len(entries)
            assert all(e["task"] == task for e in entries)
            key = "trending_score" if ranking == "trending" else "downloads"
            values = [e[key] for e in entries]
            assert values == sorted(values, reverse=True), (task, ranking)
            tested = sum(e["model_id"] in catalogue.MODELS for e in entries) / len(entries)
            assert 0.45 <= tested <= 0.75, (task, ranking, tested)
            assert any(e["num_parameters"] is None for e in entries) or task == "text-generation"
            for e in entries:
                assert set(e) == {"model_id", "rank", "task", "downloads", "likes", "trending_score", "num_parameters"}
                if e["model_id"] in catalogue.MODELS:
                    assert catalogue.MODELS[e["model_id"]].task == task
    text = {e["model_id"] for e in rankings_json["tasks"]["text-generation"]["trending"]}
    assert "Qwen/Qwen3-0.6B" in text
    assert text & set(catalogue.EXCLUSIONS), "an excluded model should be ranked, so the page can say why"


def test_catalogue_is_shared_and_well_formed():
    ids = [m.model_id for m in catalogue.CATALOGUE]
    assert len(ids) == len(set(ids)) >= 120
    assert all(re.fullmatch(r"[\w.-]+/[\w.-]+", i) for i in ids)
    assert {m.task for m in catalogue.CATALOGUE} == {"text-generation", "image-text-to-text"}
    assert any(m.is_moe for m in catalogue.CATALOGUE) and any(m.params_b > 60 for m in catalogue.CATALOGUE)
    known = set(ids)
    for group in (
        catalogue.EXCLUSIONS,
        catalogue.OVERRIDES,
        catalogue.ADDED_AT,
        catalogue.REMOVED_AFTER,
        catalogue.EXPERT_PARALLEL,
        catalogue.REGRESSIONS_NEWEST,
        catalogue.FIXES_NEWEST,
        catalogue.REGRESSIONS_TF5,
        catalogue.FIXES_TF5,
    ):
        assert set(group) <= known


def test_synthetic_writes_about_the_rows_asked_for(tmp_path):
    paths = ms.write_synthetic(tmp_path, 2000)
    assert sorted(tmp_path.iterdir()) == sorted(paths)
    assert all(p.suffix == ".parquet" for p in paths)
    frame = pd.concat([pq.read_table(p).to_pandas() for p in paths], ignore_index=True)
    assert 1900 <= len(frame) <= 2000
    assert len(paths) == 20
    assert frame.groupby(["neuronx_cc", "library_version"]).ngroups == len(paths)
    assert frame["model_id"].str.fullmatch(r"org-\d+/model-\d+-(8x)?[\d.]+B").any()
    tested = frame[frame["result"] != "EXCLUDED"]
    assert (tested.groupby(["model_id", "tp"])["run_py"].nunique() == 1).all()
    assert (tested["hbm_capacity_gb"] == tested["tp"] * 24.0).all()
    assert frame["error"].nunique() < frame["error"].notna().sum()  # templates repeat
    names = [pq.read_schema(p).names for p in paths]
    assert sum("exclusion" not in n for n in names) == 2
    assert (tmp_path / paths[0].name).read_bytes() == (ms.write_synthetic(tmp_path / "again", 2000)[0]).read_bytes()


def test_synthetic_spreads_its_rows_over_the_stacks_asked_for(tmp_path):
    paths = ms.write_synthetic(tmp_path, 1000, stacks=5)
    frame = pd.concat([pq.read_table(p).to_pandas() for p in paths], ignore_index=True)
    assert len(paths) == 5
    assert frame.groupby(["neuronx_cc", "library_version"]).ngroups == 5
    assert 190 <= frame["model_id"].nunique() <= 220  # about rows / stacks models, 5% rotating out


def test_synthetic_rejects_nonsense(tmp_path):
    with pytest.raises(ValueError):
        ms.write_synthetic(tmp_path, 0)
    with pytest.raises(ValueError):
        ms.write_synthetic(tmp_path, 100, stacks=21)


def test_command_line_synthetic_writes_only_parquet(tmp_path, capsys):
    assert ms.main(["--rows", "300", "--out", str(tmp_path / "big")]) == 0
    written = list((tmp_path / "big").iterdir())
    assert written and all(p.suffix == ".parquet" for p in written)
    assert sum(pq.read_metadata(p).num_rows for p in written) == 300
    assert "wrote" in capsys.readouterr().out


def test_command_line_sample_honours_its_paths(tmp_path):
    assert ms.main(["--out", str(tmp_path / "sample"), "--rankings", str(tmp_path / "r.json")]) == 0
    assert len(list((tmp_path / "sample").glob("*.parquet"))) == len(catalogue.ALL_STACKS)
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["tasks"]


def test_bundled_files_are_up_to_date(tmp_path):
    bundled = ROOT / "data" / "sample"
    fresh = ms.write_sample(tmp_path)
    assert sorted(p.name for p in bundled.glob("*.parquet")) == sorted(p.name for p in fresh)
    for path in fresh:
        assert pq.read_table(bundled / path.name).equals(pq.read_table(path)), path.name
    assert json.loads((ROOT / "data" / "rankings_snapshot.json").read_text(encoding="utf-8")) == ms.rankings_snapshot()
