"""How figures read: parameter counts and cores (the untested model's evidence and a test request show them)."""

import math

import pandas as pd

from components.queries import formatting
from components.queries.formatting import core_count, cores, cores_phrase, noun, parameter_count, parameters


def test_a_parameter_count_reads_in_billions_or_millions_and_nonsense_is_unknown():
    assert parameters(1_540_000_000) == "1.54 B parameters"
    assert parameters(135_000_000) == "0.14 B parameters"
    assert parameters(35_000_000) == "35 M parameters"
    assert [parameters(v) for v in (None, 0, -5, True, "7B", math.nan)] == ["size unknown"] * 6


def test_the_short_count_is_the_one_requests_and_reasons_write():
    assert (parameter_count(1_235_814_400), parameter_count(24_000_000), parameter_count(None)) == (
        "1.24 B",
        "24 M",
        "unknown",
    )
    assert [parameter_count(v) for v in (0, -5, True, "7B", math.nan)] == ["unknown"] * 5


def test_cores_as_a_figure_a_phrase_and_a_value():
    assert (cores(4.0), cores(None)) == ("4", "—")
    assert (cores_phrase(1), cores_phrase(8.0), cores_phrase(math.nan)) == (" on 1 core", " on 8 cores", "")
    assert (core_count(4.0), core_count(None), core_count(0), core_count(True)) == (4, None, None, None)


def test_infinite_and_missing_figures_read_as_a_dash():
    from components.queries import formatting

    assert formatting.memory(float("inf"), 24.0) == "—"
    assert formatting.duration(float("-inf")) == "—"
    assert formatting.plain(float("inf")) is None


def test_counts_read_short_in_a_narrow_column():
    from components.queries.formatting import compact

    assert [compact(v) for v in (16015313, 374599, 4430, 103.5, None)] == ["16.0 M", "375 k", "4,430", "103.5", "—"]


def test_a_core_count_with_its_plural_open_and_how_a_run_was_spread():
    from components.queries.formatting import cores_noted, sharding

    assert [cores_noted(4.0), cores_noted(1, trainium=True), cores_noted(None)] == [
        "4 core(s)",
        "1 Trainium core(s)",
        "— core(s)",
    ]
    assert [sharding(8), sharding(1.0), sharding(None), sharding(0), sharding(float("nan"))] == [
        ", sharded over 8 Trainium cores",
        ", on one Trainium core",
        "",
        "",
        "",
    ]


def test_a_count_takes_the_singular_only_for_one():
    assert [noun(n, "fix", "fixes") for n in (0, 1, 2)] == ["fixes", "fix", "fixes"]
    assert [noun(n, "model") for n in (1, 3)] == ["model", "models"]


def test_plain_reads_each_kind_of_value_as_json_does():
    import numpy as np
    import pandas as pd

    from components.queries import formatting

    stamp = pd.Timestamp("2025-11-24 16:00", tz="UTC")
    values = ["text", "", "nan", None, np.nan, pd.NA, pd.NaT, np.int32(3), np.float64(2.5), stamp, True]
    assert [formatting.plain(v) for v in values] == [
        "text", "", "nan", None, None, None, None, 3, 2.5, "2025-11-24T16:00:00+00:00", True
    ]  # fmt: skip
    assert type(formatting.plain(np.int32(3))) is int


def test_a_day_is_the_utc_date_of_a_time_and_a_dash_when_unknown():
    assert formatting.day("2026-10-26T23:30:00-02:00") == "2026-10-27"
    assert formatting.day(pd.Timestamp("2026-11-16 08:23", tz="UTC")) == "2026-11-16"
    assert formatting.day(None) == formatting.day(pd.NaT) == "—"
