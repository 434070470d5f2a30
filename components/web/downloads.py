"""The "Download CSV" and "Download Parquet" buttons under the results table.

A click writes the file from the filters as they are at that moment (see `export.py`), then the
browser saves it. A plain `gr.DownloadButton` would save the file of the click before.
"""

from __future__ import annotations

import gradio as gr

from components.queries import export, views
from components.sources.rankings import RankingsStore
from components.sources.records_store import RecordsStore
from components.sources.store import DatasetStore
from components.web.filters import Filters

# Saves the file the handler just wrote: a link with `download` is what the browser understands.
SAVE_JS = """(file) => {
  if (!file || !file.url) return;
  const a = document.createElement("a");
  a.href = file.url;
  a.download = file.orig_name || "";
  document.body.appendChild(a);
  a.click();
  a.remove();
}"""


class Downloads:
    def __init__(self, datasets: DatasetStore, rankings: RankingsStore, records: RecordsStore | None = None):
        self.datasets = datasets
        self.rankings = rankings
        self.records = records

    def file(self, fmt: str, filters: Filters) -> str:
        """Every row the filters match (not only the rows shown), written as `fmt`; gr.File takes a str."""
        records = self.records.current() if self.records else None
        result = views.select(self.datasets.current(), self.rankings.current(), filters.query(), records)
        return str(export.write(result, fmt))

    def csv(self, filters: Filters) -> str:
        return self.file("csv", filters)

    def parquet(self, filters: Filters) -> str:
        return self.file("parquet", filters)


def build(
    filters: dict[str, gr.components.Component],
    datasets: DatasetStore,
    rankings: RankingsStore,
    records: RecordsStore | None = None,
) -> None:
    """Lay out the two buttons and wire them to the Models tab's filters ({name: component})."""
    handler = Downloads(datasets, rankings, records)
    names = {component: name for name, component in filters.items()}
    with gr.Row(elem_id="downloads"):
        csv = gr.Button("Download CSV", size="sm", elem_id="download-csv", scale=0, min_width=140)
        parquet = gr.Button("Download Parquet", size="sm", elem_id="download-parquet", scale=0, min_width=160)
    gr.Markdown(
        "Downloads hold every matching row, not only those shown. In the CSV, text starting with "
        "`=` `+` `-` `@` gets a leading `'` so that spreadsheets do not run it as a formula.",
        elem_classes=["hint"],
    )
    written = gr.File(visible=False, elem_id="download-file")
    for button, write in ((csv, handler.csv), (parquet, handler.parquet)):

        def on_click(values: dict, write=write) -> str:
            return write(Filters.of({names[c]: v for c, v in values.items()}))

        button.click(on_click, set(filters.values()), written, api_visibility="private").success(
            None, written, None, js=SAVE_JS
        )
