"""The table's order: a column sorted as numbers, missing values last, a link's `sort=` read safely."""

import pandas as pd

from components.queries import links, ordering
from components.queries.views import normalise, select


def test_numbers_sort_as_numbers_with_missing_values_last_both_ways():
    frame = pd.DataFrame(
        {
            "model_id": ["a/small", "b/big", "c/none", "d/mid"],
            "downloads": pd.array([972_000, 16_000_000, None, 3_400_000], dtype="Int64"),
            "kind": ["fail", "pass", "not tested", "excluded"],
        }
    )
    down = ordering.apply(frame, ordering.parse("-downloads"))
    assert list(down["model_id"]) == ["b/big", "d/mid", "a/small", "c/none"]  # 16 M above 972 k
    up = ordering.apply(frame, ordering.parse("downloads"))
    assert list(up["model_id"]) == ["a/small", "d/mid", "b/big", "c/none"]  # unknown last either way
    assert list(ordering.apply(frame, ordering.parse("result"))["kind"]) == ["pass", "fail", "excluded", "not tested"]
    assert ordering.apply(frame, ordering.parse("")) is frame  # the view's own order


def test_a_link_sort_is_read_safely_and_a_click_turns_it():
    for nonsense in ("", "-", "--wall", "wall;drop", "<script>", None, 5):
        assert ordering.parse(nonsense) == ordering.Order()
    assert ordering.parse("-wall") == ordering.Order("wall", True)
    assert ordering.Order().after_click("size") == ordering.Order("size", True)  # numbers: high to low first
    assert ordering.Order().after_click("model") == ordering.Order("model", False)  # text: A to Z first
    assert ordering.Order("size", True).after_click("size").param == "size"
    assert ordering.Order("size", True).after_click("bogus") == ordering.Order("size", True)
    assert ordering.shown(ordering.Order(), "trending", False) == ordering.Order("trending", True)
    assert ordering.shown(ordering.Order(), "selected", True) == ordering.Order()  # a search: best match first


def test_a_link_keeps_its_order(world):
    snap, rankings = world
    state = links.parse({"sort": "-wall", "q": "qwen"}, snap)
    assert state.sort == "-wall" and "sort=-wall" in links.build(state)
    assert links.sort_of("./?" + links.build(state)) == "-wall"
    assert links.parse({"sort": "bogus"}, snap).sort == ""
    frame = select(snap, rankings, normalise()).frame
    walls = list(ordering.apply(frame, ordering.parse("-wall"))["wall_s"].dropna())
    assert walls == sorted(walls, reverse=True)
