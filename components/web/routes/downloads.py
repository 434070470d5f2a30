"""The CSV and Parquet downloads of a view: plain links, served by a route of their own.

`GET /export/csv?<the page's link>` (or `/export/parquet`) sends every row the link's filters match,
not only the rows shown (`page=grid` and the Grid page's link: the support grid, one row per architecture and stack), as a file made in memory: no download writes to disk, so no caller can
pile files up and nothing is left behind when the app stops. A link needs no component, event or script on the
page (a download button and its hidden file component weighed ~10 KB of the first page), and it
can be copied, opened in a new tab or fetched with curl.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from components.queries import export, grid, links, views
from components.runtime import settings
from components.sources.app_sources import Sources

FORMATS = {"csv": "text/csv; charset=utf-8", "parquet": "application/vnd.apache.parquet"}


class Downloads:
    def __init__(self, sources: Sources):
        self.sources = sources

    def file(self, fmt: str, params: dict[str, str]) -> tuple[str, bytes]:
        """Every row the link's filters match, as a `fmt` file: (its name, its bytes)."""
        now = self.sources.now()
        snapshot, rankings, records = now.snapshot, now.rankings, now.records
        if params.get("page") == grid.PATH:  # the Grid page's links: its cells, one row per architecture and stack
            view = grid.grid_view(params, snapshot, views.task_choices(snapshot, rankings, records))
            answer = grid.grid(snapshot, records, view.library, view.task)
            return grid.file_name(answer, fmt), export.table_bytes(grid.export_table(answer), fmt)
        state = links.parse(params, snapshot, views.task_choices(snapshot, rankings, records))
        result = views.select(snapshot, rankings, state.query, records)
        return export.file_name(result, fmt), export.to_bytes(result, fmt)

    def route(self) -> Route:
        def download(request: Request) -> Response:  # sync: Starlette runs it in its thread pool
            fmt = request.path_params["fmt"]
            if fmt not in FORMATS:
                return JSONResponse({"error": f"no such format; use one of {', '.join(FORMATS)}"}, status_code=404)
            if len(request.url.query) > settings.DOWNLOAD_QUERY.value:
                return JSONResponse({"error": "link too long"}, status_code=414)
            name, content = self.file(fmt, dict(request.query_params))
            # the name is [A-Za-z0-9._-] only (export.file_name): safe inside the quotes
            disposition = f'attachment; filename="{name}"'
            return Response(content, media_type=FORMATS[fmt], headers={"Content-Disposition": disposition})

        return Route("/export/{fmt}", download, methods=["GET"])


def routes(sources: Sources) -> list[Route]:
    return [Downloads(sources).route()]
