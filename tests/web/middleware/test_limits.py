"""`BodySizeLimitMiddleware` over ASGI: both length headers refused, and the bytes that arrive are what count."""

from __future__ import annotations

from components.web.middleware.limits import BodySizeLimitMiddleware
from tests.helpers import run_async


def call(headers, chunks, limit=100):
    got, sent = [], []
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

    async def inner(scope, receive, send):
        while True:
            message = await receive()
            got.append(message)
            if message["type"] == "http.disconnect" or not message.get("more_body"):
                return

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/x", "headers": headers}
    run_async(BodySizeLimitMiddleware(inner, default=limit)(scope, receive, send))
    return got, sent


def test_content_length_with_transfer_encoding_is_a_400_unread():
    got, sent = call([(b"content-length", b"5"), (b"transfer-encoding", b"chunked")], [b"x" * 1000])
    assert not got and sent[0]["status"] == 400 and b"Transfer-Encoding" in sent[1]["body"]


def test_bytes_past_the_limit_read_as_a_client_gone_whatever_the_length_said():
    got, sent = call([(b"content-length", b"10")], [b"x" * 60, b"x" * 60])
    assert got[-1] == {"type": "http.disconnect"} and not sent
    got, _ = call([(b"content-length", b"10")], [b"x" * 10])
    assert got == [{"type": "http.request", "body": b"x" * 10, "more_body": False}]
