"""Tests for components/domain/hardware.py: the trn2 table and the harness's sizing rule, read from data/trn2.json."""

import json

import pytest

from components.domain.hardware import HARDWARE_FILE, hardware


@pytest.mark.parametrize(
    "cores, instance",
    [(1, "trn2.3xlarge"), (2, "trn2.3xlarge"), (4, "trn2.3xlarge"), (4.0, "trn2.3xlarge"), (8, "trn2.48xlarge"),
     (16, "trn2.48xlarge"), (64, "trn2.48xlarge")],
)  # fmt: skip
def test_the_smallest_instance_for_a_core_count(cores, instance):
    assert hardware().smallest_instance(cores).name == instance


@pytest.mark.parametrize("cores", [0, -1, 65, None, "4", True, float("nan")])
def test_no_instance_for_nonsense_or_too_many_cores(cores):
    assert hardware().smallest_instance(cores) is None


@pytest.mark.parametrize(
    "parameters, cores",
    [(135_000_000, 1), (8_030_000_000, 1), (9_200_000_000, 1), (9_240_000_000, 2), (14_800_000_000, 2), (32_800_000_000, 4),
     (70_600_000_000, 8), (140_600_000_000, 16), (235_000_000_000, None), (None, None), (0, None)],
)  # fmt: skip
def test_cores_from_the_parameter_count(parameters, cores):
    # bf16 (2 bytes per parameter) with 1.3x headroom against ~24 GB per core, rounded up to 1, 2, 4, 8 or 16
    assert hardware().cores_for(parameters) == cores


def test_the_table_lives_in_one_data_file():
    data = json.loads(HARDWARE_FILE.read_text())
    by_name = {i["name"]: i for i in data["instances"]}
    assert by_name["trn2.3xlarge"] == {"name": "trn2.3xlarge", "devices": 1, "cores": 4, "hbm_gb": 96}
    assert by_name["trn2.48xlarge"]["devices"] == 16 and by_name["trn2.48xlarge"]["cores"] == 64
    assert data["core_degrees"] == [1, 2, 4, 8, 16] and data["hbm_per_core_gb"] == 24


def test_the_smallest_instances_of_many_core_counts_agree_with_one_at_a_time():
    cores = [1, 2, 4, 4.0, 5, 8, 16, 64, 65, 0, -1, float("nan")]
    names = hardware().smallest_instances(cores).tolist()
    assert names == [i.name if (i := hardware().smallest_instance(c)) else None for c in cores]
    assert names[:8] == ["trn2.3xlarge"] * 4 + ["trn2.48xlarge"] * 4 and names[8:] == [None] * 4
    assert hardware().smallest_instances([]).tolist() == []
    assert hardware().instance_cores() == {"trn2.3xlarge": 4, "trn2.48xlarge": 64}
