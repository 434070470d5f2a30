"""What lets several replicas of the app stand behind one address: each names itself, all agree on the page.

- `name()`: the replica's name, sent in every answer's `X-Replica` header (env `REPLICA`; by default the host
  name and the process id, so two processes on one machine, or two pods, never share one).
- `app_id()`: the id Gradio writes into every page's config and answers at `/gradio_api/app_id`. Gradio draws
  it at random per process; a tab compares the two to tell whether "the app changed", and the page's ETag is a
  hash of its bytes. Drawn from the app's own files instead, every replica of one release sends the same page
  (so the same ETag) and a tab failed over to another replica sees the same app; a new release gets a new id.
- `STICKY_SCRIPT`: the first HTML's line that gives the browser a random `affinity` cookie, which a balancer
  hashes on (`deploy/nginx.conf`) so that one tab's queue calls reach one replica. It is set by the page's
  script, not by a `Set-Cookie` header: the first HTML stays the same for every visitor, so a shared cache may
  keep it, and never hands one visitor's cookie to the next.
"""

from __future__ import annotations

import functools
import hashlib
import os
import socket
from pathlib import Path

from components.runtime import environment, settings

ROOT = Path(__file__).resolve().parents[2]
# What a release of the app is: its code and the files its pages are made of.
RELEASE_FILES = ("app.py", "components/**/*.py", "assets/*.css", "assets/*.md")
COOKIE = "affinity"
# A day: long enough for any tab to finish; a new day's tab may land on another replica, which holds no state
# it needs. 96 random bits from `crypto.getRandomValues`, which (unlike `randomUUID`) works over plain http.
STICKY_SCRIPT = (
    "<script>(()=>{if(/(?:^|;\\s*)" + COOKIE + "=/.test(document.cookie))return;"
    "const b=crypto.getRandomValues(new Uint8Array(12));"
    'document.cookie="' + COOKIE + '="+Array.from(b,x=>x.toString(16).padStart(2,"0")).join("")'
    f'+";path=/;max-age={settings.AFFINITY_COOKIE_SECONDS.value};SameSite=Lax"}})()</script>'
)


def name() -> str:
    """This replica's name: env `REPLICA`, else `<host name>-<process id>`."""
    return environment.REPLICA.get() or f"{socket.gethostname()}-{os.getpid()}"


@functools.cache
def app_id(framework: str, root: Path = ROOT) -> int:
    """A 64-bit id, the same for every process running the same files under `root` on the same `framework`
    release (the Gradio version: `gradio/mount.py` reads it)."""
    digest = hashlib.blake2b(framework.encode(), digest_size=8)
    for pattern in RELEASE_FILES:
        for path in sorted(root.glob(pattern)):
            if path.is_file():
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return int.from_bytes(digest.digest(), "big")
