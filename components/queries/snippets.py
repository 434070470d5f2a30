"""Query it yourself: the pandas lines and the DuckDB SQL that read the public dataset and return what a
page shows, to run as they are in a person's own pipeline.

The dataset's files do not share one schema (older ones lack `exclusion`, some name the cores
`neuron_cores`), so the pandas lines read file by file and concatenate, and the SQL reads with
`union_by_name`. A model's task and size come from its Hub record and a ranked view's order from the
Hub's rankings, none of them in the dataset: a snippet for such a view filters to the model ids shown,
listed, and says so. Every value is written as a literal of its language (`repr` for Python, doubled
quotes for SQL), so a hostile model id stays data.
"""

from __future__ import annotations

import re

from components.domain.results import NOT_TESTED
from components.queries import views
from components.queries.views import ViewResult, query_words
from components.sources.dataset import HUB_DATASET

_READ = """import fsspec  # pip install pandas pyarrow huggingface_hub (huggingface_hub reads hf:// paths)
import pandas as pd

DATA = {data!r}
fs, root = fsspec.core.url_to_fs(DATA)
# file by file: the files do not share one schema (older ones lack `exclusion`)
files = sorted(f for f in fs.find(root) if f.endswith(".parquet"))
df = pd.concat([pd.read_parquet(f, filesystem=fs) for f in files], ignore_index=True)
if "neuron_cores" in df:  # some files name the cores neuron_cores
    df["tp"] = df["tp"].fillna(df["neuron_cores"]) if "tp" in df else df["neuron_cores"]
# a model run twice on a stack: its newest run counts, as on the page
df = df.sort_values("tested_at", ascending=False, na_position="last", kind="stable")
df = df.drop_duplicates(["model_id", "neuronx_cc", "library", "library_version"])
"""
_SQL_SOURCE = "read_parquet({path}, union_by_name = true)"


def _sql(value: str) -> str:
    """A SQL string literal."""
    return "'" + value.replace("'", "''") + "'"


def model_snippet(model_id: str, data: str = HUB_DATASET) -> str:
    """Pandas lines that return `model_id`'s rows on every stack (`rows`), latest run first."""
    return (
        f"# {model_id!r} on every stack, from the public dataset\n"
        + _READ.format(data=data)
        + f'rows = df[df["model_id"] == {model_id!r}].sort_values("tested_at", ascending=False)\n'
        + "print(rows)\n"
    )


def _conditions(result: ViewResult) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """What the view filters by, as (pandas, SQL) condition pairs, the comments to say, and the model
    ids to list when the view depends on what the dataset does not hold (task, size, a ranking)."""
    query, stack = result.query, result.stack
    pairs: list[tuple[str, str]] = []
    comments: list[str] = []
    if stack is not None:
        for column, value in (("neuronx_cc", stack.neuronx_cc), ("library", stack.library),
                              ("library_version", stack.library_version)):  # fmt: skip
            pairs.append((f'(df["{column}"] == {value!r})', f"{column} = {_sql(value)}"))
    else:  # no stack named: the stacks the rows are on (each library's newest; a ranked model's own)
        on = _stacks_shown(result)
        pairs.append(
            (
                '(df["neuronx_cc"] + " " + df["library"] + " " + df["library_version"]).isin(' + repr(on) + ")",
                "concat_ws(' ', neuronx_cc, library, library_version) IN (" + ", ".join(_sql(k) for k in on) + ")",
            )
        )
    for word in query_words(query.text):
        pairs.append(
            (
                f'df["model_id"].str.casefold().str.replace(r"[\\W_]+", "", regex=True).str.contains({word!r}, regex=False)',
                f"contains(regexp_replace(lower(model_id), '[^a-z0-9]+', '', 'g'), {_sql(word)})",
            )
        )
    needs_ids = []
    if views.of(query.view).needs:
        needs_ids.append(views.of(query.view).needs)
    if query.task:
        needs_ids.append(f"task {query.task} (from the models' Hub records, not in the dataset)")
    if query.size:
        needs_ids.append(f"size {query.size} B (the Hub records' parameter counts, not in the dataset)")
    ids = []
    if needs_ids:
        comments.append("The page filters by " + "; ".join(needs_ids) + ":")
        comments.append("these are the model ids it shows.")
        ids = [str(m) for m in result.frame["model_id"]]
    return pairs, comments, ids


def _stacks_shown(result: ViewResult) -> list[str]:
    """`neuronx_cc library library_version` of each stack the view's rows are on (tested rows only)."""
    frame = result.frame
    tested = frame[frame["kind"] != NOT_TESTED] if len(frame) else frame
    keys = (
        " ".join(str(v) for v in key) for key in zip(*(tested[c] for c in ("neuronx_cc", "library", "library_version")))
    )
    return sorted(set(keys))


def view_snippets(result: ViewResult, data: str = HUB_DATASET) -> tuple[str, str]:
    """(pandas, DuckDB SQL) that return the rows of the view `result` shows (its stack, search text,
    task, size and ranking). The pandas lines leave them in `rows`."""
    pairs, comments, ids = _conditions(result)
    what = _describe(result)
    pandas_lines = [f"# {what}, from the public dataset"]
    pandas_lines += [f"# {c}" for c in comments]
    pandas_lines.append(_READ.format(data=data).rstrip("\n"))
    mask = [p for p, _ in pairs]
    if ids:
        pandas_lines.append(f"shown = {ids!r}")
        mask.append('df["model_id"].isin(shown)')
    pandas_lines.append("rows = df[" + (" & ".join(mask) if mask else "df.index == df.index") + "]")
    order = views.of(result.query.view).dataset_order  # a view in the dataset's own order: newest first
    if order:
        pandas_lines.append(f'rows = rows.sort_values("{order}", ascending=False, na_position="last", kind="stable")')
    pandas_lines.append("print(rows)")
    where = [s for _, s in pairs]
    if ids:
        where.append("model_id IN (" + ", ".join(_sql(m) for m in ids) + ")")
    path = _sql(data.rstrip("/") + "/**/*.parquet")
    sql_lines = [f"-- {what}, from the public dataset (DuckDB reads hf:// paths itself)"]
    sql_lines += [f"-- {c}" for c in comments]
    sql_lines.append("SELECT *")
    sql_lines.append("FROM " + _SQL_SOURCE.format(path=path))
    if where:
        sql_lines.append("WHERE " + "\n  AND ".join(where))
    sql_lines.append("-- a model run twice on a stack: its newest run counts, as on the page")
    sql_lines.append(
        "QUALIFY row_number() OVER (PARTITION BY model_id, neuronx_cc, library, library_version "
        "ORDER BY tested_at DESC NULLS LAST) = 1"
    )
    if order:
        sql_lines.append(f"ORDER BY {order} DESC NULLS LAST")
    return "\n".join(pandas_lines) + "\n", "\n".join(sql_lines) + ";\n"


def _describe(result: ViewResult) -> str:
    query, stack = result.query, result.stack
    parts = [f"The {views.of(query.view).label} view"]
    parts.append(f"on {stack.plain_label}" if stack is not None else views.of(query.view).unnamed)
    if query.text:
        parts.append(f"matching {query.text!r}")
    return re.sub(r"[\r\n]+", " ", " ".join(parts))
