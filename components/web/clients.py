"""Who is asking: the client address every per-address limit, count and log line uses, and which peers are
trusted proxies.

uvicorn wraps the app in its proxy-headers middleware, which trusts the peers `FORWARDED_ALLOW_IPS` names and
sets the request's client to the rightmost `X-Forwarded-For` hop that a trusted proxy did not write (the
standard reading). `forwarded_allow_ips()` decides that one setting, and `client_address(scope)` reads its
result; nothing else in the app reads `X-Forwarded-For`.

On a Space (env `SYSTEM=spaces`) every connection comes from Hugging Face's proxies, which reach the app from
private addresses that are not published: there the private ranges and loopback are trusted by default. Off a
Space uvicorn's default (loopback) holds. `FORWARDED_ALLOW_IPS` overrides either; `*` is never taken, since
uvicorn then reads the leftmost hop, the one the client wrote itself.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
from collections.abc import Mapping
from typing import Any

from components.runtime import environment

log = logging.getLogger(__name__)

LOOPBACK = ("127.0.0.1", "::1")  # uvicorn's own default; other loopback addresses are untrusted peers
PRIVATE_RANGES = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
EVERYONE = "*"


def on_space(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the app runs on a Hugging Face Space (env `SYSTEM=spaces`, which every Space sets): the one reading
    the app has, for the proxies it trusts and for what it turns on as Gradio's `launch()` would there."""
    return environment.SYSTEM.get(environ) == "spaces"


def forwarded_allow_ips(environ: Mapping[str, str] | None = None) -> str:
    """The peers uvicorn trusts to write `X-Forwarded-For` and `X-Forwarded-Proto`: env `FORWARDED_ALLOW_IPS`
    (comma-separated addresses and networks, `*` left out with a warning), else on a Space the private ranges
    and loopback, else loopback."""
    items = environment.FORWARDED_ALLOW_IPS.get(environ)
    if EVERYONE in items:
        log.warning("FORWARDED_ALLOW_IPS: '*' is ignored: it would make uvicorn read the hop the client wrote itself")
        items = tuple(item for item in items if item != EVERYONE)
    if items:
        return ",".join(items)
    return ",".join((*PRIVATE_RANGES, *LOOPBACK) if on_space(environ) else LOOPBACK)


@functools.lru_cache(maxsize=8)
def _networks(spec: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    networks = []
    for item in spec.split(","):
        try:
            networks.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            continue  # uvicorn keeps such an item as a literal name: no IP peer matches it
    return tuple(networks)


def trusted(peer: str, spec: str) -> bool:
    """Whether the connection's peer address `peer` is one of the trusted proxies `spec` names."""
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in network for network in _networks(spec))


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's address for this request: the connection's peer, or the rightmost `X-Forwarded-For` hop no
    trusted proxy wrote, as uvicorn's proxy-headers middleware has set it (`"unknown"` when there is none)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
