"""Every environment variable the app reads, declared once and read here, as huggingface_hub's `constants.py` does.

A variable is a `Variable`: its name, its default, its meaning, the module that uses it, and one parser for its type
(`text`, `items`, `flag`, `whole`, `seconds`). Nothing else in `app.py` or `components/` touches `os.environ`
(`tests/runtime/test_environment.py` holds that by reading the code). A value is read when asked for (`get()`), not
at import, so a process (or a test) that sets a variable before building the app gets it. A value its parser
cannot read is logged as one line naming the variable, what it holds and what was wanted, and the default is kept:
a typo in a deployment's settings never stops the app.

`docs/limits.md`'s table of the environment is printed from here (`python -m components.runtime.environment
--markdown`), and `tests/runtime/test_environment.py` holds the two equal. Variables that huggingface_hub or
Gradio read themselves (`HF_HUB_OFFLINE`, `HF_HOME`, `GRADIO_*`) are listed with what the app does with them;
the app asks the library (`huggingface_hub.constants.is_offline_mode()`), never the environment, for those.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from components.runtime import settings
from components.runtime.markdown import print_when_asked, table

log = logging.getLogger(__name__)

T = TypeVar("T")
Environ = Mapping[str, str]


# -- one parser per type: each takes the stripped, non-empty text and returns the value, or raises ValueError
#    whose text says what was wanted ("a positive whole number")


def text(given: str) -> str:
    """The text as given."""
    return given


def items(given: str) -> tuple[str, ...]:
    """Comma-separated items, each stripped, empty ones dropped."""
    return tuple(item.strip() for item in given.split(",") if item.strip())


NO_ITEMS: tuple[str, ...] = ()
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def flag(given: str) -> bool:
    """`1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`, in any case."""
    if given.lower() in _TRUE:
        return True
    if given.lower() in _FALSE:
        return False
    raise ValueError("one of 1, true, yes, on, 0, false, no, off")


def whole(given: str) -> int:
    """A positive whole number."""
    if given.isdigit() and int(given) > 0:
        return int(given)
    raise ValueError("a positive whole number")


def seconds(most: float) -> Callable[[str], float]:
    """A parser of a number of seconds from 0 to `most`."""

    def parse(given: str) -> float:
        try:
            value = float(given)
        except ValueError:
            value = -1.0
        if not 0 <= value <= most:  # also NaN
            raise ValueError(f"a number of seconds from 0 to {most:g}")
        return value

    parse.__doc__ = f"A number of seconds from 0 to {most:g}."
    return parse


@dataclass(frozen=True)
class Variable(Generic[T]):
    """One environment variable: read with `parse` when set and not blank, else `default`. `meaning` says what it
    does, `default_shown` the default in words where the value alone says little, `where` the modules that use it,
    and `owner` who reads it: "app" (through `get()`), or the library that reads it itself."""

    name: str
    parse: Callable[[str], T]
    default: T
    meaning: str
    where: str
    default_shown: str = ""
    owner: str = "app"

    def get(self, environ: Environ | None = None) -> T:
        """The value in `environ` (the process's environment when None), else the default; a value `parse` cannot
        read is logged with the variable's name and the default kept."""
        given = (os.environ if environ is None else environ).get(self.name, "").strip()
        if not given:
            return self.default
        try:
            return self.parse(given)
        except ValueError as exc:
            log.warning(
                "%s=%r is not %s: %s is kept", self.name, given[: settings.ENV_VALUE_QUOTED.value], exc, self.shown()
            )
            return self.default

    def set_default(self) -> None:
        """Give the process's environment the default unless the variable is already set (a library reads it
        later, as Gradio does `GRADIO_ANALYTICS_CACHE_FREQUENCY`)."""
        os.environ.setdefault(self.name, str(self.default))

    def shown(self) -> str:
        """The default as the docs print it."""
        if self.default_shown:
            return self.default_shown
        if isinstance(self.default, bool):
            return "on" if self.default else "off"
        if isinstance(self.default, tuple):
            return ",".join(self.default) or "none"
        if self.default == "":
            return "unset"
        if isinstance(self.default, float):
            return f"{self.default:g} s"
        return f"{self.default:,}" if isinstance(self.default, int) else str(self.default)


# fmt: off

# -- where the data comes from (app.py's command line; the option, when given, wins)
SUPPORT_DATASET = Variable("SUPPORT_DATASET", text, "",
    "`--dataset`: a folder of Parquet files, one Parquet file, or an `hf://datasets/...` path",
    "app.py", "the live Hub dataset, falling back to the bundled sample")
SUPPORT_RANKINGS = Variable("SUPPORT_RANKINGS", text, "",
    "`--rankings`: a rankings snapshot file, or `hub` for live rankings",
    "app.py, components/sources/rankings_store.py", "live, falling back to the bundled snapshot")
SUPPORT_MODELS = Variable("SUPPORT_MODELS", text, "",
    "`--models`: a Hub model records JSON file, or `hub` for live look-ups only",
    "app.py, components/sources/records_store.py", "the bundled records plus live look-ups")
GRADIO_SERVER_NAME = Variable("GRADIO_SERVER_NAME", text, "127.0.0.1", "`--host`: the address to listen on", "app.py")
GRADIO_SERVER_PORT = Variable("GRADIO_SERVER_PORT", whole, 7860, "`--port`: the port to listen on", "app.py",
    "7860")

# -- where the app is, and who stands in front of it
SYSTEM = Variable("SYSTEM", text, "",
    "`spaces` on a Hugging Face Space (every Space sets it): the proxies trusted, and what `launch()` would turn on there",
    "components/web/clients.py")
SPACE_HOST = Variable("SPACE_HOST", text, "",
    "the Space's public host name (a Space sets it): the pages', feeds' and reports' absolute links",
    "components/web/middleware/origin.py, components/queries/links.py")
PUBLIC_URL = Variable("PUBLIC_URL", text, "",
    "the app's public origin off a Space, `http(s)://HOST[:PORT]`; unset, the request's own `Host`",
    "components/web/middleware/origin.py")
FORWARDED_ALLOW_IPS = Variable("FORWARDED_ALLOW_IPS", items, NO_ITEMS,
    "the proxies trusted to name the client: comma-separated addresses and networks (`*` is ignored)",
    "components/web/clients.py", "`127.0.0.1,::1`; on a Space also the private ranges")
REPLICA = Variable("REPLICA", text, "", "this replica's name, in `X-Replica` and the metrics",
    "components/web/replicas.py", "the host name and process id")
GRADIO_ROOT_PATH = Variable("GRADIO_ROOT_PATH", text, "", "the path prefix the app is served under (Gradio's)",
    "components/web/gradio/mount.py")

# -- connections (the settings table's CONNECTIONS and PEER_CONNECTIONS)
MAX_CONNECTIONS = Variable("MAX_CONNECTIONS", whole, settings.CONNECTIONS.value,
    "open connections, at most the open-file limit less the reserve (`CONNECTIONS`)", "components/web/server.py")
MAX_PEER_CONNECTIONS = Variable("MAX_PEER_CONNECTIONS", whole, settings.PEER_CONNECTIONS.value,
    "open connections from one peer that is not a trusted proxy (`PEER_CONNECTIONS`)", "components/web/server.py")

# -- the data's freshness (the settings table's DATA_CHECK and WEBHOOK_DEBOUNCE)
DATA_CHECK_SECONDS = Variable("DATA_CHECK_SECONDS", seconds(86_400), settings.DATA_CHECK.value,
    "between looks for a changed dataset, 0 for none (`DATA_CHECK`)", "components/sources/dataset_store.py")
WEBHOOK_DEBOUNCE_SECONDS = Variable("WEBHOOK_DEBOUNCE_SECONDS", seconds(3600), settings.WEBHOOK_DEBOUNCE.value,
    "the least spacing of webhook-asked refreshes, 0 to ask on every call (`WEBHOOK_DEBOUNCE`)",
    "components/web/routes/webhook.py")
WEBHOOK_SECRET = Variable("WEBHOOK_SECRET", text, "",
    "the secret a Hub webhook sends; unset, `POST /webhooks/dataset` answers 404", "components/web/routes/webhook.py")

# -- wanted (docs/wanted.md)
WANTED_SECRET = Variable("WANTED_SECRET", text, "",
    "the secret the replicas share for the wanted counts' daily salt", "components/sources/wanted_counts.py",
    "unset: a random salt per replica")
WANTED_REPO = Variable("WANTED_REPO", text, "", "a dataset repo the wanted counts are committed to (with `HF_TOKEN`)",
    "components/sources/wanted_store.py", "unset: counted in memory only")
HF_TOKEN = Variable("HF_TOKEN", text, "", "a Hub token that can write `WANTED_REPO`",
    "components/sources/wanted_store.py")

# -- what the process reports
METRICS = Variable("METRICS", flag, True, "`GET /metrics` (`0` turns it off)", "components/web/metrics.py")

# -- read by the libraries themselves; the app asks them or hands them a value
# After every event Gradio's queue rebuilds a pandas summary of the last 10,000 events (the latency figures of the
# API page): a few to tens of ms of CPU per request, growing with traffic. Once per 1,000 events keeps those figures
# fresh at a thousandth of the cost; Gradio reads the setting from the environment.
ANALYTICS_CACHE_FREQUENCY = Variable("GRADIO_ANALYTICS_CACHE_FREQUENCY", whole, settings.ANALYTICS_EVERY.value,
    "events between rebuilds of Gradio's analytics summary: set by the app to `ANALYTICS_EVERY` unless given",
    "components/web/gradio/mount.py", owner="Gradio")
GRADIO_ALLOWED_PATHS = Variable("GRADIO_ALLOWED_PATHS", items, NO_ITEMS,
    "more folders Gradio may serve files from, comma-separated (the app's own and the Hub's folder stay blocked)",
    "components/web/gradio/mount.py")
GRADIO_BLOCKED_PATHS = Variable("GRADIO_BLOCKED_PATHS", items, NO_ITEMS,
    "more folders Gradio must never serve, comma-separated", "components/web/gradio/mount.py")
GRADIO_IS_E2E_TEST = Variable("GRADIO_IS_E2E_TEST", text, "",
    "Gradio's own test switch (set: a closed session's state lives 1 s, not an hour), kept by the lean sessions",
    "components/web/gradio/patches/sessions.py")
HF_HUB_OFFLINE = Variable("HF_HUB_OFFLINE", flag, False,
    "no Hub call: the bundled sample and snapshots are served (`huggingface_hub.constants.is_offline_mode()`)",
    "components/sources/refresh.py, components/sources/dataset_store.py, components/sources/rankings_store.py",
    owner="huggingface_hub")
HF_HOME = Variable("HF_HOME", text, "~/.cache/huggingface",
    "huggingface_hub's folder (it holds the token): Gradio never serves it (`huggingface_hub.constants.HF_HOME`)",
    "components/web/gradio/mount.py", owner="huggingface_hub")
# fmt: on

TABLE: dict[str, Variable[str] | Variable[int] | Variable[float] | Variable[bool] | Variable[tuple[str, ...]]] = {
    value.name: value for value in globals().values() if isinstance(value, Variable)
}


def markdown() -> str:
    """The variables as `docs/limits.md` prints them, one row a variable, in the order declared here."""
    rows = []
    for name, v in TABLE.items():
        owner = "" if v.owner == "app" else f" (read by {v.owner})"
        where = ", ".join(f"`{module}`" for module in v.where.split(", "))
        rows.append((f"`{name}`", v.shown(), f"{v.meaning}{owner}", where))
    return table(("variable", "default", "what it sets", "used in"), rows)


if __name__ == "__main__":
    print_when_asked("components.runtime.environment", markdown)
