"""The architectures on a stack (components/web/html/architectures.py): the headline beside its definition, the
table with its models cut short, every value escaped."""

from components.web.html.architectures import headline_html, table_html

EVIL = '<img src=x onerror="alert(1)">'


def test_the_architectures_escape_and_defines_its_figure():
    figure = {"share": 0.5, "passing": 1, "architectures": 2, "ranked": 3, "unknown": 1, "definition": "Def " + EVIL,
              "rows": [{"architecture": "A" + EVIL, "ranked_models": 2, "passing": False}]}  # fmt: skip
    html = headline_html(figure)
    assert "<b>50%</b>" in html and "1 of 2" in html and "1 of the 3 ranked models" in html and "<img" not in html
    table = table_html([{"architecture": EVIL, "tested": 2, "passed": 1,
                         "models": [{"model_id": EVIL, "result": "PASS"}] * 14}])  # fmt: skip
    assert "<img" not in table and "and 2 more" in table
    assert "No architecture of the ranked models" in headline_html({**figure, "share": None})
