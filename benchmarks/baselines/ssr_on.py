"""Ours with Gradio's server-side rendering forced on: what a Space would run if the app left Gradio to serve it.

`python benchmarks/baselines/ssr_on.py --dataset DIR --rankings FILE --port N` (GRADIO_NODE_PATH: a Node 24)

For the benchmarks only, so that both modes are measured in one run; the app itself has no such switch. SSR
needs Gradio's own `launch()` (its Node server is the front proxy), so the app's routes and middleware are
handed to it as `app_kwargs`, as the app did before it owned its server.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from starlette.middleware import Middleware  # noqa: E402

import app  # noqa: E402
from components.runtime import settings  # noqa: E402
from components.web import server  # noqa: E402
from components.web.gradio import assets, mount, page_config, theme  # noqa: E402
from components.web.html import head  # noqa: E402


def serve_with_ssr(demo, sources, *, dataset=None, host, port, page_head=""):
    mount.patches_in_force()
    demo.queue(
        default_concurrency_limit=settings.EVENT_CONCURRENCY.value, max_size=settings.QUEUE_SIZE.value, api_open=False
    )
    demo.launch(
        server_name=host,
        server_port=port,
        ssr_mode=True,
        mcp_server=True,
        theme=theme.theme(),
        css=theme.minified_css(mount.ASSETS / "style.css"),
        head=head.minified_head(page_head),
        show_error=False,
        footer_links=["api"],
        run_history=False,
        max_file_size=server.MAX_FILE_SIZE,
        blocked_paths=mount.blocked_paths(dataset),
        # launch() starts the queue through Gradio's own start-up route, which the app answers only when mounted
        app_kwargs={
            "routes": server.routes(sources),
            "middleware": server.middleware(
                sources, files=[Middleware(assets.InMemoryAssetsMiddleware)], slim=page_config.slim
            ),
        },  # fmt: skip
    )


mount.serve = serve_with_ssr  # main() looks serve up when it runs

if __name__ == "__main__":
    app.main()
