from components.domain.versions import newest_first, short_version, version_key


def test_versions_sort_as_versions_not_text():
    assert newest_first(["2.9.1", "2.28.7631.0+82129205", "2.10.0"]) == ["2.28.7631.0+82129205", "2.10.0", "2.9.1"]


def test_local_suffix_does_not_disturb_order():
    assert newest_first(["2.21.18209.0+043b1bf7", "2.21.9999.0+ffffffff", "2.22.1.0+00000000"]) == [
        "2.22.1.0+00000000",
        "2.21.18209.0+043b1bf7",
        "2.21.9999.0+ffffffff",
    ]


def test_transformers_5_10_is_newer_than_5_9():
    assert newest_first(["5.9.0", "5.10.0", "4.57.1"]) == ["5.10.0", "5.9.0", "4.57.1"]


def test_unparsable_versions_are_kept_after_parsable_ones():
    assert newest_first(["nightly", "2.9", "banana", None, "2.10"]) == ["2.10", "2.9", "banana", "nightly"]
    assert version_key("nightly") > version_key("99.0")


def test_short_version_drops_the_local_part():
    assert short_version("2.28.7631.0+82129205") == "2.28.7631.0"
    assert short_version("4.57.1") == "4.57.1"
