"""The views are declared once (`views.REGISTRY`): every view says everything the page, the answers and the files
say of it, and no other module branches on a view's name (a missed branch would fail silently: a new view would
get another view's wording)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from components.queries import api, arguments, ordering, views
from components.queries.errors import ArgumentRefused

ROOT = Path(__file__).resolve().parents[2]
REGISTRY_FILE = ROOT / "components" / "queries" / "views.py"
NAMES = "|".join(re.escape(v.id) for v in views.REGISTRY)
# A branch on a view's name: a comparison with a view's id or its constant, a lookup keyed by a view (a dict such
# as `{"trending": ...}.get(view)` or `LABELS[query.view]`), or a view's constant used at all.
BRANCHES = (
    re.compile(rf"""[=!]=\s*["'](?:{NAMES})["']|["'](?:{NAMES})["']\s*[=!]="""),
    re.compile(rf"""\bview\w*\s+(?:not\s+)?in\s*[(\[{{]\s*["'](?:{NAMES})["']"""),
    re.compile(r"\b(?:SELECTED|TRENDING|DOWNLOADS|RECENT|VIEW_LABELS)\b"),
    re.compile(r"\.get\(\s*(?:\w+\.)?view\b|\[\s*(?:\w+\.)?view\s*\]"),
)


def code_files() -> list[Path]:
    return [ROOT / "app.py", *sorted((ROOT / "components").rglob("*.py"))]


def branches(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if any(p.search(line) for p in BRANCHES)]


def test_no_module_but_the_registry_branches_on_a_views_name():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in code_files()
        if path != REGISTRY_FILE and (lines := branches(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "ask `views.of(view)` for what a view does instead"


@pytest.mark.parametrize(
    "line",
    [
        "if query.view != views.SELECTED:",
        'rank = r.get("rank") if view != "selected" else None',
        'if view == "trending":',
        'if "downloads" == view or not searching:',
        'if query.view in ("trending", "downloads"):',
        "_FIGURE.get(view, _DOWNLOADS)",
        "label = views.VIEW_LABELS[query.view]",
        "figure = FIGURES[view]",
    ],
)
def test_the_grep_finds_each_kind_of_branch_the_registry_replaced(line):
    assert branches(line) == [line]


@pytest.mark.parametrize(
    "line",
    [
        "view = views.of(query.view)",
        '("view", q.view if q.view != views.DEFAULT else ""),',
        'get("q"), get("view") or views.DEFAULT, get("task"),',
        '"downloads": Column("downloads", numeric=True),',
        'rankings.ranked(t, "trending")',
    ],
)
def test_the_grep_leaves_what_is_no_branch_on_a_view(line):
    assert branches(line) == []


@pytest.mark.parametrize("view", views.REGISTRY, ids=lambda v: v.id)
def test_each_view_declares_its_words_rows_order_and_tasks(view: views.View):
    assert re.fullmatch(r"[a-z]+", view.id) and view.label.strip() and view.label[0].isupper()
    for words in (view.lists, view.task_rule, view.unnamed, view.unnamed_about):
        assert words.strip() and "\n" not in words  # each reaches a one-line description
    assert callable(view.rows) and callable(view.tasks)
    assert view.order in ("", *ordering.COLUMNS) and view.figure in ordering.COLUMNS
    assert views.of(view.id) is view and arguments.view(view.id.upper()) == view.id
    # the API's descriptions are made from the registry: every view is in them
    for text in (api.ARGS["view"], api.ARGS["task"], api.ARGS["search_stack"]):
        assert f'"{view.id}"' in text
    assert view.label in api.ARGS["view"] or view.lists in api.ARGS["view"]


def test_the_registry_has_one_default_first_and_unique_ids():
    assert views.VIEWS[0] == views.DEFAULT and len(set(views.VIEWS)) == len(views.REGISTRY)
    assert [v for _, v in views.choices()] == list(views.VIEWS)
    assert views.of("no such view") is views.of(views.DEFAULT)
    with pytest.raises(ArgumentRefused, match="use one of " + ", ".join(views.VIEWS)):
        arguments.view("nope")


def test_a_views_tasks_follow_its_rule(world):
    snap, rankings = world
    for view in views.REGISTRY:
        tasks = views.view_tasks(snap, rankings, None, view.id)
        assert tasks, view.id
        # a ranked view takes the ranked tasks only (the Hub ranks one task at a time); others take any, "" first
        assert (tasks[0] != "") == bool(view.ranking), view.id
