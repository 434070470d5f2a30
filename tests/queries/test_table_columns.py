"""The column registry (`components/queries/table_columns.py`): every place a Models table column shows, sorts,
answers or exports reads it, so a column declared there alone reaches all of them."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from components.domain.hardware import hardware
from components.queries import answers, export, links, ordering, views
from components.queries import table_columns as registry
from components.web.html import first_paint, table
from tests.helpers import ROOT

DOC_START = "<!-- column list: python -m components.queries.table_columns --markdown -->"
DOC_END = "<!-- end of the column list -->"


def _html(frame: pd.DataFrame, view: str, live: bool) -> str:
    order = ordering.Order()
    query = views.Query(view=view)
    return str(
        table.results_table(
            frame, view, order, ordering.shown(order, view, False),
            lambda model, asked: links.build(links.PageState(query, model, sort=asked)), live=live,
        )
    )  # fmt: skip


def _headers(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>|[▲▼]", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", html)]


def test_the_docs_print_the_registry():
    doc = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    assert DOC_START in doc and DOC_END in doc
    printed = doc.split(DOC_START, 1)[1].split(DOC_END, 1)[0].strip("\n") + "\n"
    assert printed == registry.markdown(), "run: python -m components.queries.table_columns --markdown"
    assert all(f"| {c.header} | `{c.field}` |" in printed for c in registry.COLUMNS)


def test_every_column_is_a_field_of_the_row_answer_and_sorts():
    row_keys = answers.keys(answers.RowAnswer)
    assert all(c.field in row_keys for c in registry.COLUMNS)
    assert answers.keys(answers.ColumnFields) == registry.OWN_FIELDS
    assert set(registry.OWN_FIELDS) <= set(views.ROW_FIELDS)
    assert ordering.COLUMNS is registry.BY_ID and all(ordering.parse(c.id).key == c.id for c in registry.COLUMNS)


@pytest.mark.parametrize("view", views.VIEWS)
def test_the_painted_and_live_tables_show_the_registry_s_columns_in_its_order(world, view):
    snap, rankings = world
    frame = views.select(snap, rankings, views.normalise(view=view)).frame
    painted, live = _html(frame, view, live=False), _html(frame, view, live=True)
    headers = list(table.table_columns(view))
    assert _headers(painted) == _headers(live) == headers
    assert headers == [c.header for c in registry.COLUMNS if not c.figure] + [headers[-1]]
    assert headers[-1] == registry.BY_ID[views.of(view).figure].header  # the column the view ranks by
    for html in (painted, live):  # every row has a cell per column, each with its column's class
        classes = [re.findall(r'<td[^>]*class="c-([a-z]+)', r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", html)[1:]]
        assert classes and all(c == [registry.BY_ID[h].id for h in _ids(headers)] for c in classes)


def _ids(headers: list[str]) -> list[str]:
    by_header = {c.header: c.id for c in registry.COLUMNS}
    return [by_header[h] for h in headers]


def _classes(style: str, scope: str, rule: str) -> set[str]:
    """The columns (ids) whose cells `rule` styles under `scope`."""
    selectors = re.findall(r"([^{}]*)\{" + re.escape(rule), style)
    return {m for chunk in selectors for m in re.findall(re.escape(scope) + r" \.c-([a-z]+)", chunk)}


def test_each_column_s_style_comes_from_the_registry():
    for scope, style in (("#results", table.column_css("#results")), ("#first-paint", str(first_paint.STYLE))):
        assert _classes(style, scope, "display:none") == {
            c.id for c in registry.COLUMNS if registry.PHONE not in c.screens
        }
        assert _classes(style, scope, "text-align:right") == {c.id for c in registry.COLUMNS if c.align == "right"}
        assert _classes(style, scope, "min-width:12em") == {"model"}
    assert "nth-child" not in table.column_css("#results") + str(first_paint.STYLE)
    assert str(first_paint.STYLE).startswith("<style>") and "&lt;" not in str(first_paint.STYLE)  # not escaped
    sheet = (ROOT / "assets" / "style.css").read_text(encoding="utf-8").splitlines()
    assert not [line for line in sheet if "#results" in line and "nth-child" in line]


def test_a_column_added_to_the_registry_shows_sorts_and_is_styled(world, monkeypatch):
    snap, rankings = world
    probe = registry.Column("probe", "Probe", "tp", "the cores again", text=lambda r: f"p{r.get('tp')}", align="left")
    monkeypatch.setattr(registry, "COLUMNS", (*registry.COLUMNS[:2], probe, *registry.COLUMNS[2:]))
    monkeypatch.setitem(registry.BY_ID, "probe", probe)
    frame = views.select(snap, rankings, views.normalise()).frame
    assert table.table_columns("selected")[2] == "Probe"
    live = _html(frame, "selected", live=True)
    assert "Probe" in _headers(_html(frame, "selected", live=False)) and 'data-sort="probe"' in live
    assert re.search(r'<td role="gridcell" class="c-probe">p\d+</td>', live)
    assert "probe" in _classes(table.column_css("#results"), "#results", "display:none")
    by_probe = ordering.apply(frame, ordering.parse("-probe"))
    assert by_probe["tp"].dropna().tolist() == sorted(frame["tp"].dropna().tolist(), reverse=True)
    assert "| Probe | `tp` |" in registry.markdown()


# A column whose field only the registry declares, added before anything else reads the registry: the answer
# type, /search's rows, the OpenAPI document and the exports carry its field.
PROBE = textwrap.dedent(
    """
    from typing import Annotated
    from components.queries import table_columns as registry
    probe = registry.Column("probe", "Probe", "probe_field", "a probe", answer=Annotated[int | None, "a probe count"],
                            derive=lambda frame: [7] * len(frame))
    registry.COLUMNS = (*registry.COLUMNS, probe)
    registry.BY_ID["probe"] = probe
    registry.OWN_FIELDS = tuple(registry.own_fields())
    from components.queries import answers, export, views
    from components.queries.api import Api
    from components.web.html import table
    from components.web.routes import openapi
    from tests.helpers import served
    print("answer", "probe_field" in answers.keys(answers.RowAnswer), answers.describe(answers.RowAnswer)["probe_field"])
    print("rows", "probe_field" in views.ROW_FIELDS, "Probe" in table.table_columns("selected"))
    schemas = openapi.document(Api(served(None)))["components"]["schemas"]
    print("openapi", schemas["RowAnswer"]["properties"]["probe_field"].get("description"))
    print("export", export._EXTRA_TYPES["probe_field"])
    """
)


def test_a_field_declared_in_the_registry_reaches_the_answers_openapi_and_exports():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert lines == {"answer": "True a probe count", "rows": "True True", "openapi": "a probe count", "export": "int64"}
    frame = registry.derive(pd.DataFrame({"tp": [1, 8]}))
    assert list(frame.columns) == ["tp", *registry.OWN_FIELDS]


def test_each_row_names_the_smallest_instance_for_its_cores_and_the_answers_and_exports_carry_it(world):
    snap, rankings = world
    for view in views.VIEWS:
        result = views.select(snap, rankings, views.normalise(view=view))
        records = result.records()
        assert records and all("instance" in r for r in records)
        for r in records:
            expected = hardware().smallest_instance(r["tp"]) if r["tp"] is not None else None
            assert r["instance"] == (expected.name if expected else None), r
        assert {r["instance"] for r in records} >= {"trn2.3xlarge", None} if views.of(view).ranking else True
        table_html = _html(result.frame, view, live=True)
        assert '<th scope="col" role="columnheader" class="c-instance num">' in table_html
        assert all(f'class="c-instance num">{r["instance"] or "—"}</td>' in table_html for r in records)
        csv = pd.read_csv(io.BytesIO(export.to_bytes(result, "csv")), keep_default_na=False, na_values=[""], dtype=str)
        assert list(csv["instance"].fillna("")) == [r["instance"] or "" for r in records]
        parquet = pq.read_table(io.BytesIO(export.to_bytes(result, "parquet")))
        assert parquet.schema.field("instance").type == pa.string()
        assert parquet.column_names.index("instance") == parquet.column_names.index("num_parameters") + 1


def test_instances_sort_by_their_cores_not_their_names(monkeypatch):
    assert registry.by_instance_cores(pd.Series(["trn2.48xlarge", "trn2.3xlarge", None])).tolist()[:2] == [64, 4]
    tp = pd.array([1, 8, None, 4, 16, None, 2], dtype="Int64")
    frame = registry.derive(pd.DataFrame({"model_id": [f"m{i}" for i in range(len(tp))], "tp": tp}))
    assert ordering.parse("instance").key == "instance" and ordering.Order().after_click("instance").descending
    for descending in (True, False):
        ordered = ordering.apply(frame, ordering.Order("instance", descending))
        cores = [hardware().instance_cores().get(name) for name in ordered["instance"]]
        known = [c for c in cores if c is not None]
        assert known == sorted(known, reverse=descending) and len(set(known)) > 1
        assert cores[len(known) :] == [None, None]  # unknown cores last either way
        assert list(ordered["model_id"][:3]) == (["m1", "m4", "m0"] if descending else ["m0", "m3", "m6"])
    # names that sort the other way by letters: the order still follows the cores
    monkeypatch.setattr(registry, "hardware", lambda: _Renamed())
    assert registry.by_instance_cores(pd.Series(["b-big", "a-small"])).tolist() == [64, 4]


class _Renamed:
    def instance_cores(self) -> dict[str, int]:
        return {"a-small": 4, "b-big": 64}


def test_the_instance_column_is_in_the_tables_the_docs_and_off_a_phone(world):
    snap, rankings = world
    frame = views.select(snap, rankings, views.normalise()).frame
    for live in (True, False):
        assert _headers(_html(frame, "selected", live))[3:5] == ["Cores", "Instance"]
    assert registry.PHONE not in registry.BY_ID["instance"].screens
    assert "instance" in _classes(table.column_css("#results"), "#results", "display:none")
    assert "| Instance | `instance` |" in (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
