"""torch-neuronx model support: does this Hub model run unmodified on AWS Trainium, and how?

`python app.py [--dataset SOURCE] [--rankings SOURCE] [--models SOURCE] [--host H] [--port P]`

This file lays out the page and wires its events; the data side lives in `components/`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import gradio as gr

from components.queries.api import Api
from components.runtime import environment, logs, memory
from components.sources import hub_log
from components.sources.app_sources import Sources
from components.sources.dataset_store import DatasetStore
from components.sources.errors import SourceError
from components.sources.listing import check_local_source
from components.sources.rankings_store import resolve_rankings
from components.sources.records_store import resolve_records
from components.web import capacity
from components.web.gradio import mount
from components.web.gradio.pages import architectures as architectures_page
from components.web.gradio.pages import charts as charts_page
from components.web.gradio.pages import compare as compare_page
from components.web.gradio.pages import endpoints as endpoints_page
from components.web.gradio.pages import failures as failures_page
from components.web.gradio.pages import grid as grid_page
from components.web.gradio.pages import wanted as wanted_page
from components.web.gradio.pages.models import ModelsPage
from components.web.gradio.pages.wiring import PAGE_EVENT
from components.web.gradio.patches import build_once
from components.web.html import head, notice

ROOT = Path(__file__).resolve().parent
TITLE = "torch-neuronx model support"


def build(sources: Sources) -> gr.Blocks:
    """The page. Values arrive on load; a tested model's link carries them in its first HTML instead
    (`ModelsPage.first_answer`), so its page needs no load event."""
    with build_once.building():  # Gradio's server app built once, not once per `with` block below
        return _lay_out(sources)


def _lay_out(sources: Sources) -> gr.Blocks:
    models = ModelsPage(sources)
    api = Api(sources)
    with gr.Blocks(title=TITLE, analytics_enabled=False) as demo:
        header = page_top()
        models.layout(header)
        models.wire(demo)

    # The other tools are pages of their own: the first page describes only the Models page's
    # components (Gradio sends a page's whole layout with it), and each page fills itself on load.
    pages = (
        ("Compare stacks", "compare", lambda: compare_page.build(demo.load, sources)),
        ("Charts", "charts", lambda: charts_page.build(demo.load, sources)),
        ("Architectures", "architectures", lambda: architectures_page.build(demo.load, sources)),
        ("Grid", grid_page.PATH, None),  # its load event fills the notice too (below)
        ("Failures", "failures", lambda: failures_page.build(demo.load, sources)),
        ("Wanted", "wanted", lambda: wanted_page.build(demo.load, sources)),
        ("About", "about", lambda: gr.Markdown((ROOT / "assets" / "about.md").read_text(encoding="utf-8"))),
    )
    for name, path, lay_out in pages:
        with demo.route(name, f"/{path}"):
            header = page_top()
            if lay_out is None:  # the Grid: one event fills the notice and the grid, so its painted grid swaps at once
                grid_page.build(demo.load, sources, header)
                continue
            demo.load(lambda: notice.page_header(sources, sources.now()), None, header, **PAGE_EVENT)
            lay_out()

    # The named endpoints (for gradio_client, plain HTTP and MCP) are the app's, not a page's: Gradio
    # lists each with the schema of its answer, ~45 KB that no page needs, so they sit on a page of their
    # own that the nav bar does not show.
    with demo.route("API endpoints", "/endpoints", show_in_navbar=False):
        header = page_top()
        demo.load(lambda: notice.page_header(sources, sources.now()), None, header, **PAGE_EVENT)
        endpoints_page.build(api)
    return demo


def page_top() -> gr.HTML:
    """The nav bar, the title and the data notice that head every page (the notice says when the data is
    sample data)."""
    gr.Navbar(main_page_name="Models")
    gr.HTML(str(notice.title(TITLE)))
    return gr.HTML(elem_id="header")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=environment.SUPPORT_DATASET.get() or None,
                        help="Parquet folder, file or hf://datasets/... path (env SUPPORT_DATASET); default: the Hub dataset, falling back to the bundled sample")  # fmt: skip
    parser.add_argument("--rankings", default=environment.SUPPORT_RANKINGS.get() or None,
                        help="a rankings snapshot file, or 'hub' (env SUPPORT_RANKINGS); default: live, falling back to the bundled snapshot")  # fmt: skip
    parser.add_argument("--models", default=environment.SUPPORT_MODELS.get() or None,
                        help="a Hub model records JSON file, or 'hub' (env SUPPORT_MODELS); default: the bundled records snapshot plus live Hub look-ups for ids it lacks")  # fmt: skip
    parser.add_argument("--host", default=environment.GRADIO_SERVER_NAME.get())
    parser.add_argument("--port", type=int, default=environment.GRADIO_SERVER_PORT.get())
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    memory.limit_arenas()  # before any thread: each refresh's freed memory must not stay spread over many arenas
    capacity.raise_open_files()  # every open tab holds a connection, each a file descriptor (docs/limits.md)
    logs.configure()  # one record, one line, a UTC time first; what a caller sends is escaped (runtime/logs.py)
    hub_log.quiet()
    args = parse_args(argv)
    # At the command line the person gave the paths: errors name them whole (the page and API scrub them).
    rankings = resolve_rankings(args.rankings)
    try:
        rankings.begin()
    except SourceError as exc:
        sys.exit(f"error: --rankings '{args.rankings}': {exc}")
    try:
        if args.dataset and not args.dataset.startswith("hf://"):
            check_local_source(args.dataset)
        sources = Sources(DatasetStore(args.dataset), rankings, resolve_records(args.models))
        sources.begin()  # the Hub is read while the page is built
    except SourceError as exc:
        sys.exit(f"error: {exc}")
    demo = build(sources)
    sources.start()
    # the server: the app's routes, its middleware, this page mounted, and uvicorn (components/web/gradio/mount.py)
    mount.serve(demo, sources, dataset=args.dataset, host=args.host, port=args.port, page_head=PAGE_HEAD)


# what every page's <head> carries: the feed's link for feed readers, and the page's script (html/head.py)
PAGE_HEAD = head.HEAD


if __name__ == "__main__":
    main()
