"""How figures read: the parameter count of a model (the untested model's evidence shows it)."""

import math

from components.queries.formatting import parameters


def test_a_parameter_count_reads_in_billions_or_millions_and_nonsense_is_unknown():
    assert parameters(1_540_000_000) == "1.54 B parameters"
    assert parameters(135_000_000) == "0.14 B parameters"
    assert parameters(35_000_000) == "35 M parameters"
    assert [parameters(v) for v in (None, 0, -5, True, "7B", math.nan)] == ["size unknown"] * 6
