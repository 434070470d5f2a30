"""torch-neuronx model support: does this Hub model run unmodified on AWS Trainium, and how?

`python app.py [--dataset SOURCE] [--rankings SOURCE] [--models SOURCE] [--host H] [--port P]`

This file lays out the page and wires its events; the data side lives in `components/`.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

import gradio as gr
from huggingface_hub import constants as hf_constants

from components.sources import heap, hub_log
from components.sources.dataset import check_local_source
from components.sources.errors import SourceError
from components.sources.moment import Sources
from components.sources.rankings_store import resolve_rankings
from components.sources.records_store import resolve_records
from components.sources.store import DatasetStore
from components.web import capacity, patches, theme
from components.web.html import head, render
from components.web.pages import architectures as architectures_tab
from components.web.pages import charts as charts_tab
from components.web.pages import compare as compare_tab
from components.web.pages import failures as failures_tab
from components.web.pages.models import ModelsTab
from components.web.patches import build_once
from components.web.routes import api_v1, be_found, downloads, first_response, limits, refusals, streams, webhook
from components.web.routes.endpoints import Api

ROOT = Path(__file__).resolve().parent
ASSETS = ROOT / "assets"
TITLE = "torch-neuronx model support"

# Limits (docs/limits.md). Every handler reads one immutable snapshot, holds no lock and takes
# milliseconds, so events may run side by side. Gradio runs one call of each event at a time unless
# told otherwise, and then one slow answer (a 10,000-row /search, a chart's first draw, a CSV export)
# makes everyone asking for the same thing wait behind it; the `gr.api` endpoints are events too.
# 16 at a time per event lets a crowd search at once; all events share Gradio's 40 worker threads,
# and on a 2-vCPU Space more would only queue on the GIL.
CONCURRENCY_LIMIT = 16
MAX_THREADS = 40
# A burst beyond this many waiting events is told "queue full" at once rather than made to wait.
QUEUE_MAX_SIZE = 512
# Gradio's default ("auto") sends every waiting tab its place in the queue each time an event starts: a
# burst of 500 waiting tabs costs 500 messages per event on the event loop, the cost growing as the square
# of the crowd. Every 2 s instead, each waiting tab still learns its place (progress shows it).
QUEUE_STATUS_EVERY = 2.0
# The app takes no files, but Gradio's upload route is open in every app: keep what it stores tiny.
MAX_FILE_SIZE = "1kb"


def build(sources: Sources) -> gr.Blocks:
    """The page. Values arrive on load (never inlined into the HTML): the page stays light."""
    with build_once.building():  # Gradio's server app built once, not once per `with` block below
        return _lay_out(sources)


def _lay_out(sources: Sources) -> gr.Blocks:
    models = ModelsTab(sources)
    api = Api(sources)
    with gr.Blocks(title=TITLE, analytics_enabled=False) as demo:
        header = page_top()
        models.layout(header)
        models.wire(demo)

    # The other tools are pages of their own: the first page describes only the Models page's
    # components (Gradio sends a page's whole layout with it), and each page fills itself on load.
    pages = (
        ("Compare stacks", "compare", lambda: compare_tab.build(demo.load, sources)),
        ("Charts", "charts", lambda: charts_tab.build(demo.load, sources)),
        ("Architectures", "architectures", lambda: architectures_tab.build(demo.load, sources)),
        ("Failures", "failures", lambda: failures_tab.build(demo.load, sources)),
        ("About", "about", lambda: gr.Markdown((ROOT / "assets" / "about.md").read_text(encoding="utf-8"))),
    )
    for name, path, lay_out in pages:
        with demo.route(name, f"/{path}"):
            header = page_top()
            demo.load(lambda: render.page_header(sources, sources.now()), None, header, api_visibility="private")
            lay_out()

    # The named endpoints (for gradio_client, plain HTTP and MCP) are the app's, not a page's: Gradio
    # lists each with the schema of its answer, ~45 KB that no page needs, so they sit on a page of their
    # own that the nav bar does not show.
    with demo.route("API endpoints", "/endpoints", show_in_navbar=False):
        gr.api(api.stacks, api_name="stacks")
        gr.api(api.search, api_name="search")
        gr.api(api.lookup, api_name="lookup")
        gr.api(api.compare, api_name="compare")
        gr.api(api.architectures, api_name="architectures")
        gr.api(api.failures, api_name="failures")
        gr.api(api.check_config, api_name="check_config")
    return demo


def page_top() -> gr.HTML:
    """The nav bar, the title and the data notice that head every page (the notice says when the data is
    sample data)."""
    gr.Navbar(main_page_name="Models")
    gr.HTML(
        f'<div class="title"><h1>{TITLE}</h1><p class="tagline">Does this Hugging Face model run '
        "unmodified on AWS Trainium with TorchNeuron (<code>torch-neuronx</code>)? "
        f"And how do I run it myself? {be_found.feed_link()}</p></div>"
    )
    return gr.HTML(elem_id="header")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=os.environ.get("SUPPORT_DATASET") or None,
                        help="Parquet folder, file or hf://datasets/... path (env SUPPORT_DATASET); default: the Hub dataset, falling back to the bundled sample")  # fmt: skip
    parser.add_argument("--rankings", default=os.environ.get("SUPPORT_RANKINGS") or None,
                        help="a rankings snapshot file, or 'hub' (env SUPPORT_RANKINGS); default: live, falling back to the bundled snapshot")  # fmt: skip
    parser.add_argument("--models", default=os.environ.get("SUPPORT_MODELS") or None,
                        help="a Hub model records JSON file, or 'hub' (env SUPPORT_MODELS); default: the bundled records snapshot plus live Hub look-ups for ids it lacks")  # fmt: skip
    parser.add_argument("--host", default=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("GRADIO_SERVER_PORT", "7860")))
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    heap.limit_arenas()  # before any thread: each refresh's freed memory must not stay spread over many arenas
    capacity.raise_open_files()  # every open tab holds a connection, each a file descriptor (docs/limits.md)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
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
    # the webhook, download, badge, feed and /api/v1 routes come first, before every route of Gradio's own
    routes = webhook.routes(sources.datasets) + downloads.routes(sources) + be_found.routes(sources)
    routes += api_v1.routes(sources) + first_response.routes(sources)
    # every page's first HTML says what it shows and paints its first screen (first_response.py)
    app_kwargs = {
        "routes": routes,
        "middleware": [first_response.middleware(sources, lambda: capacity.queue_full(demo))],
    }
    serve(demo, dataset=args.dataset, server_name=args.host, server_port=args.port, app_kwargs=app_kwargs)


def serve(demo: gr.Blocks, *, dataset: str | None = None, **launch) -> gr.Blocks:
    """Queue and launch the page with the app's limits and file rules; `launch` adds `launch()` arguments."""
    # Server-side rendering stays off whatever GRADIO_SSR_MODE says (a Space sets it true; docs/deploying.md, "Deploy
    # as a Space"): Gradio's Node front proxy passes only Gradio's own paths to Python, so the app's routes
    # (/export/..., /webhooks/dataset) would answer the page or 405, and its stylesheet loses to Gradio's reset.
    launch = {"ssr_mode": False, **launch}
    launch["app_kwargs"] = limits.app_kwargs(launch.get("app_kwargs"))  # bounded bodies, one-line errors
    launch["app_kwargs"] = refusals.app_kwargs(launch["app_kwargs"])  # no uploads; MCP bodies that are MCP
    launch["app_kwargs"] = streams.app_kwargs(launch["app_kwargs"])  # event streams capped and ended
    launch = patches.apply(launch)  # every change to Gradio's own behaviour, each standing down where it no longer fits
    # api_open=False: no named endpoint answers outside the queue (Gradio opens them off a Space)
    with build_once.building(launch_next=True):  # queue() builds a server app that launch() replaces at once
        demo.queue(
            default_concurrency_limit=CONCURRENCY_LIMIT,
            max_size=QUEUE_MAX_SIZE,
            api_open=False,
            status_update_rate=QUEUE_STATUS_EVERY,
        )
    demo.launch(
        theme=theme.theme(),
        css=theme.minified_css(ASSETS / "style.css"),
        head=head.minified_head(head.HEAD + be_found.PAGE_HEAD),
        show_error=False,
        footer_links=["api"],
        mcp_server=True,
        run_history=False,  # its routes would create Hub buckets with the host's saved token
        max_threads=MAX_THREADS,
        max_file_size=MAX_FILE_SIZE,
        blocked_paths=blocked_paths(dataset),
        **launch,
    )
    return demo


def blocked_paths(dataset: str | None = None) -> list[str]:
    """What Gradio must never serve, whatever GRADIO_ALLOWED_PATHS says: the app folder (source and
    bundled data), a local dataset, and huggingface_hub's folder (which holds the token)."""
    paths = [ROOT, Path(hf_constants.HF_HOME)]
    if dataset and not dataset.startswith("hf://"):
        paths.append(Path(dataset).expanduser())
    return [str(p.resolve()) for p in paths]


if __name__ == "__main__":
    main()
