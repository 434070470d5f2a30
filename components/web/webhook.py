"""`POST /webhooks/dataset`: the Hub calls it when the dataset repo changes, and a refresh starts at once.

The route is off (404) unless env `WEBHOOK_SECRET` is set; the caller's `X-Webhook-Secret` header is
compared with it in constant time (missing: 401, wrong: 403). The store runs one refresh at a time
with at most one more queued, so a burst of calls costs at most two reads. A body that is not JSON
or is over `MAX_BODY` bytes is refused with a log line; nothing served changes.
"""

from __future__ import annotations

import hmac
import json
import logging
import os

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from components.sources.refresh import RefreshingStore

log = logging.getLogger(__name__)

PATH = "/webhooks/dataset"
HEADER = "X-Webhook-Secret"
# A Hub webhook payload is a few KB; reading more would let any caller make the app buffer it.
MAX_BODY = 64 * 1024


def routes(datasets: RefreshingStore, secret: str | None = None) -> list[Route]:
    """The webhook route for `datasets`; `secret` defaults to env WEBHOOK_SECRET (unset or empty: the route answers 404)."""
    secret = os.environ.get("WEBHOOK_SECRET", "") if secret is None else secret
    expected = secret.encode("utf-8")

    async def dataset_webhook(request: Request) -> JSONResponse:
        if not expected:
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        given = request.headers.get(HEADER)
        if given is None:
            log.warning("webhook: refused a call without the %s header", HEADER)
            return JSONResponse({"error": f"missing {HEADER} header"}, status_code=401)
        if not hmac.compare_digest(given.encode("utf-8"), expected):
            log.warning("webhook: refused a call with a wrong %s", HEADER)
            return JSONResponse({"error": f"wrong {HEADER}"}, status_code=403)
        body = await _read_at_most(request, MAX_BODY)
        if body is None:
            log.warning("webhook: refused a body over %d KB; the current data is still served", MAX_BODY // 1024)
            return JSONResponse({"error": f"body over {MAX_BODY // 1024} KB"}, status_code=413)
        try:
            payload = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            log.warning("webhook: refused a body that is not JSON (%s); the current data is still served", exc)
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        event = payload.get("event") if isinstance(payload, dict) else None
        what = f"{event.get('scope')}/{event.get('action')}" if isinstance(event, dict) else "no event"
        already = datasets.refresh_pending()
        if not datasets.request_refresh():
            log.warning("webhook (%s): refreshes are off (HF_HUB_OFFLINE is set)", what)
            return JSONResponse({"error": "refreshes are off: HF_HUB_OFFLINE is set"}, status_code=503)
        if already:
            log.debug("webhook (%s): a refresh is already queued", what)
        else:
            log.info("webhook (%s): dataset refresh requested", what)
        return JSONResponse({"refresh": "queued"}, status_code=202)

    return [Route(PATH, dataset_webhook, methods=["POST"])]


async def _read_at_most(request: Request, limit: int) -> bytes | None:
    """The request body, or None as soon as it is known to exceed `limit` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)
