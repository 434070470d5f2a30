"""Tests for components/queries/sizes.py: size ranges in billions, either end open, and the masks they make."""

from components.queries import sizes


def test_ranges_parse_with_either_end_open():
    assert sizes.parse("1-10") == (1.0, 10.0)
    assert sizes.parse("100-") == (100.0, None)
    assert sizes.parse("-1") == (None, 1.0)
    for bad in ("", "-", "10-1", "5-5", "x-1", None, 3, "1-2-3"):
        assert sizes.parse(bad) is None, bad
    assert sizes.normalise("1.50-7") == "1.5-7" and sizes.normalise("nonsense") == ""


def test_the_lower_end_is_in_the_range_and_the_upper_end_is_not():
    counts = sizes.parameter_counts([1_000_000_000, 9_999_999_999, 10_000_000_000, None, 600_000_000, -5])
    keep, unknown = sizes.in_range(counts, "1-10")
    assert keep.tolist() == [True, True, False, False, False, False]
    assert unknown.tolist() == [False, False, False, True, False, True]
    assert sizes.in_range(counts, "-1")[0].tolist() == [False, False, False, False, True, False]
    assert sizes.in_range(counts, "")[0].all()  # no range: every model, unknown sizes too


def test_labels_name_the_picker_choice_or_the_range():
    assert sizes.label("1-10") == "1–10 B" and sizes.label("") == "Any size"
    assert sizes.label("2-7") == "2–7 B" and sizes.label("7-") == "7 B and over" and sizes.label("-3") == "Under 3 B"
