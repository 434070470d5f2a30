"""Every limit the app keeps, declared once: its value, unit, what it bounds, why, and the module that applies it.

The modules read each limit from here by its own name, where they apply it (`settings.WEBHOOK_BODY.value`), so a
value is changed in one line, and `docs/limits.md`'s table is printed from here (`python -m components.runtime.settings --markdown`;
`tests/runtime/test_settings.py` holds the two equal and fails on a limit declared anywhere else). A setting the
environment may override names its variable in `env`; `components/runtime/environment.py`, the one module that
reads the environment, reads it with this value as the default.

The table lives in the runtime layer because every layer reads it and runtime imports no other layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from components.runtime.markdown import print_when_asked, table

Number = TypeVar("Number", int, float)

KB = 1024
MB = 1024 * KB


@dataclass(frozen=True)
class Setting(Generic[Number]):
    """One limit: `value` in `unit`; `bounds` says what it bounds, `why` the reason for the value, `where` the
    module that applies it (and the function or class, where that says more), and `env` the variable that
    overrides it, if any."""

    value: Number
    unit: str
    bounds: str
    why: str
    where: str
    env: str | None = None

    def shown(self) -> str:
        """The value in words, as the docs print it: `8 KB`, `20 s`, `8,192 connections`."""
        value = int(self.value) if float(self.value).is_integer() else self.value
        if self.unit == "bytes" and isinstance(value, int):
            for size, name in ((MB, "MB"), (KB, "KB")):
                if value >= size and value % size == 0:
                    return f"{value // size:,} {name}"
        return f"{value:,} {self.unit}".rstrip()


# value, unit, what it bounds, why, where (module, and its function or class), env
# fmt: off

# -- the server: Gradio's queue and uvicorn's connections (components/web/server.py)
EVENT_CONCURRENCY = Setting(16, "calls", "calls of one event at once",
    "handlers read one immutable snapshot and take milliseconds; one slow answer must not hold up everyone asking the same",
    "components/web/gradio/mount.py")
WORKER_THREADS = Setting(40, "threads", "worker threads, all events",
    "on a 2-vCPU Space more would only wait for the CPU", "components/web/gradio/mount.py")
QUEUE_SIZE = Setting(512, "events", "events waiting in the queue",
    "a burst beyond it hears \"queue full\" at once instead of waiting; a new tab still gets its painted answer and retries",
    "components/web/gradio/mount.py")
QUEUE_STATUS_EVERY = Setting(2.0, "s", "how often a waiting tab is sent its place in the queue",
    "Gradio's default sends every waiting tab its place each time an event starts: 500 waiting tabs cost 500 messages per event",
    "components/web/gradio/mount.py")
SESSIONS = Setting(1000, "sessions", "sessions Gradio keeps",
    "every plain HTTP call is a session; Gradio's 10,000 grew without bound under API traffic; a tab whose session is dropped loses nothing",
    "components/web/gradio/mount.py")
ANALYTICS_EVERY = Setting(1000, "events", "events between rebuilds of Gradio's analytics summary",
    "Gradio rebuilt it after every event, a few to tens of ms of CPU each",
    "components/runtime/environment.py ANALYTICS_CACHE_FREQUENCY")
CONNECTIONS = Setting(8192, "connections", "open connections (at most the open-file limit less the reserve)",
    "uvicorn answers 503 to every request while more are open, so the cap sits far above a launch's crowd",
    "components/runtime/environment.py", "MAX_CONNECTIONS")
PEER_CONNECTIONS = Setting(1024, "connections", "open connections from one peer that is not a trusted proxy",
    "8,300 idle sockets from one peer filled the whole cap; a company's NAT (six connections a browser) still fits",
    "components/web/server.py", "MAX_PEER_CONNECTIONS")
BACKLOG = Setting(4096, "connections", "connections waiting to be accepted",
    "2,000 tabs opened at once overflow uvicorn's 2,048; Linux caps it at net.core.somaxconn", "components/web/server.py")
KEEP_ALIVE = Setting(5, "s", "an idle keep-alive connection after an answer",
    "a browser reuses an idle connection within a few seconds or not at all (uvicorn's default)", "components/web/server.py")
REQUEST_DEADLINE = Setting(20.0, "s", "a request's head and body must arrive within, from the connection or the last answer",
    "generous for a slow phone, and it still frees a slot held by a client that sends nothing or drips a line at a time",
    "components/web/server.py")
REQUEST_HEAD = Setting(16 * KB, "bytes", "a request's head still incomplete (h11's buffer)",
    "a browser's head is under 8 KB (h11's own default, made explicit)", "components/web/server.py")
UPLOAD_FILE = Setting(1 * KB, "bytes", "an uploaded file, in Gradio's own setting (its upload route is refused before it)",
    "the app takes no files, but Gradio's upload route is open in every app: keep what it stores tiny",
    "components/web/server.py MAX_FILE_SIZE")
GRACEFUL_STOP = Setting(3, "s", "open streams when the server stops, before they are cut",
    "a tab's heartbeat never ends by itself", "components/web/server.py")
MIN_CONNECTIONS = Setting(64, "connections", "the connection cap however low the open-file limit is",
    "with an open-file limit below the reserve the cap would be 0 or less and the server would take no one; a tab needs 2-3",
    "components/web/capacity.py")
FD_RESERVE = Setting(256, "descriptors", "open files kept back from the connection cap",
    "the Parquet files a refresh reads, sockets to the Hub, the log, Python's own files: a few dozen at most", "components/web/capacity.py")
OPEN_FILES_CEILING = Setting(65_536, "descriptors", "the open-file limit raised at start-up, at most",
    "every connection is a descriptor; the usual soft limit of 1,024 would stop the app near a thousand tabs",
    "components/web/capacity.py")

# -- request bodies and query strings
REQUEST_BODY = Setting(1 * MB, "bytes", "a request body, on every route",
    "the largest legitimate call is a few KB", "components/web/middleware/limits.py")
WEBHOOK_BODY = Setting(64 * KB, "bytes", "a webhook body (POST /webhooks/dataset)",
    "a Hub webhook payload is a few KB", "components/web/routes/webhook.py")
API_V1_BODY = Setting(256 * KB, "bytes", "a POST body of /api/v1 (check_config)",
    "a config.json is a few KB", "components/web/routes/api_v1.py")
API_V1_QUERY = Setting(8192, "bytes", "a query string of /api/v1",
    "a Hub id is at most 96 characters, yet a dataset row may hold a 5 KB one", "components/web/routes/api_v1.py")
BADGE_FEED_QUERY = Setting(2048, "characters", "a badge or feed query string",
    "a link is a few hundred characters", "components/web/routes/badge_feed.py")
CARD_QUERY = Setting(2048, "characters", "a preview card's query string",
    "a deep link is a few hundred characters; a longer one gets the page's own card",
    "components/web/deep_links.py")
DOWNLOAD_QUERY = Setting(4096, "characters", "a download's query string",
    "the links the page makes are a few hundred characters", "components/web/routes/downloads.py")
SEARCH_TEXT = Setting(200, "characters", "a search query, and a stack's parts in it",
    "a model id is at most 96", "components/queries/views.py")
LINK_VALUE = Setting(200, "characters", "a deep-link value",
    "longer is not a model, version or task", "components/queries/links.py")
STACK_PARAM = Setting(200, "characters", "a stack's link value, cut before it is read",
    "no real version is near it", "components/domain/stacks.py")
STACK_ASKED = Setting(80, "characters", "an asked-for stack kept to be named back",
    "an answer never echoes a huge value", "components/domain/stacks.py")
REFUSED_VALUE_SHOWN = Setting(80, "characters", "a refused argument quoted back (also by /api/v1's errors)",
    "an answer never echoes a huge value", "components/queries/arguments.py")
METHOD_SHOWN = Setting(20, "characters", "a refused HTTP method named back in its 405",
    "a method is a short word; anyone can send a long one", "components/web/middleware/methods.py not_allowed")
RPC_METHOD_SHOWN = Setting(40, "characters", "a refused MCP message's JSON-RPC method named in the refusal",
    "the same", "components/web/middleware/refusals.py why_not_mcp")
CAUSE_PARAM = Setting(40, "characters", "a cause's link value (`cause=`) on the Failures page, cut before it is read",
    "a cause's signature is about 20 characters", "components/web/gradio/pages/failures.py on_open")
CONFIG_MODEL_TYPE = Setting(100, "characters", "a config.json's `model_type` kept in the answer",
    "a real one is a word; the answer never echoes a huge value", "components/queries/config_check.py check_config")
EVENT_TEXT = Setting(65_536, "characters", "a text the Models page's events read",
    "the longest model id in the data fits (a hostile dataset's ids can be long)", "components/web/gradio/pages/models.py")
CONFIG_DEPTH = Setting(20, "levels", "a config.json's nesting",
    "a real config nests 3-4 levels", "components/queries/config_check.py")
CONFIG_COUNT = Setting(2**40, "", "a count in a config.json",
    "a larger count is no model's, and an estimate from it could not be printed", "components/queries/config_check.py")

# -- what a caller can make the app keep, draw or log
PAGE_CACHE = Setting(256, "links", "first HTML of a link kept per data moment",
    "a shared link is rendered once, then looked up; ~60 KB each keeps it near 15 MB", "components/web/middleware/first_html.py")
PAGE_CACHE_BYTES = Setting(32 * MB, "bytes", "first HTML kept per data moment, all links together",
    "a page may be up to PAGE_SCAN (4 MB): 256 of them could hold 1 GB; real pages (~50 KB) never reach this",
    "components/web/middleware/first_html.py")
GRADIO_PAGES = Setting(32, "pages", "Gradio's own answers for a page route kept per data moment, each link rewritten from one",
    "one per page, host and encoding taken (~45 KB each); other keys (Gradio's own parameters) turn the oldest over",
    "components/web/middleware/first_html.py")
PAGE_SCAN = Setting(4 * MB, "bytes", "a response the first-response middleware reads to keep",
    "a page's HTML is ~40 KB; anything far larger is passed on untouched", "components/web/middleware/first_html.py")
LOAD_ANSWERS = Setting(256, "links", "load events' answers kept per data moment",
    "a burst on one link works the answer out once", "components/web/gradio/pages/models.py")
LOAD_ANSWER_AGE = Setting(60.0, "s", "a kept load answer's age, at most",
    "the notice's \"updated N ago\" stays near the truth", "components/web/gradio/pages/models.py")
TABLES = Setting(128, "queries", "the Models table's rows kept per data moment, whatever model is open",
    "a crowd opening many models of one view renders its rows once; a hostile crawl of searches turns the oldest over",
    "components/web/gradio/pages/models.py")
TABLES_BYTES = Setting(32 * MB, "bytes", "the Models table's rows kept per data moment, all queries together",
    "100 rows are ~60 KB of HTML and \"Show more\" reaches 2,000 rows (~1.2 MB): 128 of those would hold 150 MB",
    "components/web/gradio/pages/models.py")
ROUTE_TEMPLATES = Setting(1024, "paths", "paths whose route template the metrics remember, per process",
    "matching a path against every route of the app and of Gradio's was ~3% of a crowd's CPU; paths that name an "
    "event or a file turn it over, and it starts again empty", "components/web/metrics.py")
ROUTE_LISTS = Setting(4, "lists", "lists of routes the metrics' route templates tell apart, per process",
    "an app has one or two (its own router's, a mounted app's); past it all are forgotten and found again",
    "components/web/metrics.py RouteTemplates")
CARD_CACHE = Setting(128, "cards", "preview cards kept per snapshot",
    "~50 KB each; a card is drawn once per link and snapshot", "components/web/routes/card.py")
CARD_DRAWS_BURST = Setting(10, "cards", "new preview cards one client address may have drawn at once (cards are drawn one at a time)",
    "a new card costs ~80 ms of CPU, a kept one a few; made-up links kept two cores busy",
    "components/web/routes/card.py")
CARD_DRAWS_A_MINUTE = Setting(10, "cards", "new preview cards one client address may have drawn a minute, past the burst",
    "the same: past it the caller gets the app's own card", "components/web/routes/card.py")
ALLOWANCE_ADDRESSES = Setting(4096, "addresses", "client addresses an allowance remembers",
    "as many as the unknown Hub ids kept: a few hundred KB at most", "components/web/allowance.py")
ASSETS_KEPT = Setting(16 * MB, "bytes", "Gradio's files kept in memory, compressed",
    "a page uses ~1 MB of Gradio's ~18 MB; past this Gradio serves them", "components/web/gradio/assets.py")
ASSET_MIN_SIZE = Setting(400, "bytes", "a file below this is sent uncompressed",
    "Gradio's Brotli middleware leaves them as they are too", "components/web/gradio/assets.py")
BROTLI_QUALITY = Setting(5, "", "Brotli quality of Gradio's files",
    "about as fast as Gradio's 4 and a little smaller", "components/web/gradio/assets.py")
GZIP_LEVEL = Setting(6, "", "gzip level of Gradio's files", "zlib's default trade of time for size",
    "components/web/gradio/assets.py")
PAGE_GZIP_LEVEL = Setting(6, "", "gzip level of a page's first HTML made again after its rewrite",
    "as Gradio compressed it (zlib's default); a new link's page is made while its visitor waits",
    "components/web/middleware/first_html.py")
PAGE_BROTLI_QUALITY = Setting(3, "", "Brotli quality of a page's first HTML made again after its rewrite",
    "a model link's ~170 KB page: ~1.0 ms at 3, ~1.8 ms at 4 (Gradio's own) for 5% fewer bytes, 11 ~100 ms",
    "components/web/middleware/first_html.py")
OWN_GZIP_LEVEL = Setting(6, "", "gzip level of the app's own routes (exports, feeds, pages of /api/v1)",
    "Starlette's 9 took ~210 ms on an 8 MB CSV export, 6 ~70 ms for 1% more bytes",
    "components/web/server.py")
STREAMS_PER_CLIENT = Setting(64, "streams", "open event streams per client address",
    "a tab holds two, an API client one per call; callers behind one proxy share an address",
    "components/web/middleware/streams.py")
STREAM_LIFETIME = Setting(300.0, "s", "a result or MCP stream",
    "a result arrives in seconds; minutes of heartbeats mean one that will not come", "components/web/middleware/streams.py")
STREAM_GRACE = Setting(5.0, "s", "a stream told its client left, before it is cancelled",
    "a stream past its lifetime sees the disconnect at its next ask; this bounds one that does not stop", "components/web/middleware/streams.py")
DIRECT_CALLS = Setting(8, "calls", "named-endpoint calls over plain HTTP run at once (beside Gradio's queue)",
    "each takes a worker thread for milliseconds; past it, calls wait their turn (at most QUEUE_SIZE of them)",
    "components/web/gradio/direct_calls.py")
LARGE_CALLS = Setting(2, "calls", "plain calls with a body over LARGE_CALL_BODY run at once (of the DIRECT_CALLS)",
    "300 refused ~1 MB calls, 32 at a time, took every slot: another visitor's lookup waited behind them",
    "components/web/gradio/direct_calls.py")
LARGE_CALL_BODY = Setting(64 * KB, "bytes", "a plain call's body past which it is a large call",
    "a call's arguments are a few hundred bytes; a config.json a few KB", "components/web/gradio/direct_calls.py")
UNREAD_AGE = Setting(60.0, "s", "an unread /call result",
    "an abandoned result would stay in memory",
    "components/web/gradio/direct_calls.py")
UNREAD_SWEEP_EVERY = Setting(1.0, "s", "how often unread results are swept",
    "one client sends a few dozen calls a second: the budget is enforced at each sweep", "components/web/gradio/patches/unread.py")
UNREAD_BYTES = Setting(8 * MB, "bytes",
    "all unread results together, as JSON: plain calls' (kept by the app) and the queue's (swept), oldest dropped first",
    "300 unread all-row searches held ~1 GB for a minute; a plain call keeps its answer only, never its input",
    "components/web/gradio/direct_calls.py")
UNREAD_GIVE_BACK_EVERY = Setting(10.0, "s", "how often swept memory is given back to the system",
    "malloc_trim walks the whole heap: not on every sweep", "components/web/gradio/patches/unread.py")
UNREAD_LOG_EVERY = Setting(60.0, "s", "the dropped results' count line",
    "one line a minute, not one a result", "components/web/gradio/patches/unread.py")
REFUSALS_SHOWN = Setting(3, "lines", "refusal log lines of one kind a window, then one count",
    "anyone can call a refused route: a flood must not flood the log", "components/web/asgi.py")
REFUSALS_WINDOW = Setting(60.0, "s", "the refusal log's window", "the same", "components/web/asgi.py")
REFUSAL_REASONS = Setting(5, "reasons", "reasons named by a refusal count line, the commonest",
    "the line stays one short line", "components/web/asgi.py")
ENV_VALUE_QUOTED = Setting(80, "characters", "an environment variable's value quoted in the line that refuses it",
    "a value set by mistake may be anything, a whole file's text", "components/runtime/environment.py Variable.get")
LOG_QUOTED = Setting(200, "characters", "a client's value (a path, an exception's text) quoted in a log line",
    "an unknown endpoint's 60,000-character name made a 120 KB line", "components/runtime/logs.py")
LOG_MESSAGE = Setting(4096, "characters", "a log line's message (and each line of a traceback), cut past it",
    "whatever a line quotes, it stays a line a person reads", "components/runtime/logs.py")
WEBHOOK_LOGGED = Setting(100, "characters", "a payload value in the log, as a repr",
    "a newline in it cannot start a forged line", "components/web/routes/webhook.py")
WEBHOOK_DEBOUNCE = Setting(2.0, "s", "the least spacing of the refreshes webhook calls ask for: after a quiet spell at once, in a burst one at the spacing's end for the calls since (0 to 3,600)",
    "merging only while a refresh ran let 300 calls make ~260 reads; a 10 s window held a change whose webhook followed another's for 10 s",
    "components/web/routes/webhook.py", "WEBHOOK_DEBOUNCE_SECONDS")

# -- caching by browsers and shared caches
PAGE_CACHE_SECONDS = Setting(60, "s", "a shared cache keeps the first HTML (browsers revalidate)",
    "the dataset changes a few times a day", "components/web/cache_control.py")
API_V1_CACHE_SECONDS = Setting(60, "s", "an /api/v1 answer may be cached",
    "the data changes a few times a day; a CI job polls", "components/web/routes/api_table.py CACHE_CONTROL")
CARD_CACHE_SECONDS = Setting(300, "s", "a preview card may be cached", "a card changes only with the data",
    "components/web/routes/card.py CACHE_CONTROL")
BADGE_CACHE_SECONDS = Setting(300, "s", "a badge or feed may be cached",
    "shields.io keeps an endpoint's answer at least this long (its own floor)", "components/queries/badge.py")
SCRIPT_CACHE_SECONDS = Setting(3600, "s", "a browser keeps the page scripts (/page.js, /table.js, /busy.js), then checks by ETag",
    "a script changes only with a release of the app", "components/web/routes/scripts.py CACHE_CONTROL")
AFFINITY_COOKIE_SECONDS = Setting(86_400, "s", "the balancer's affinity cookie",
    "a day: long enough for any tab to finish; a new day's tab may land on another replica, which holds no state it needs",
    "components/web/replicas.py STICKY_SCRIPT")
WANTED_FEED_CACHE_SECONDS = Setting(600, "s", "the wanted feed may be cached",
    "the counts are committed every 10 minutes", "components/web/routes/wanted.py CACHE_CONTROL")

# -- the sources: the Hub and the dataset
STARTUP_WAIT = Setting(1.0, "s", "the Hub dataset at start", "start-up never waits on the network: then the sample is served",
    "components/sources/dataset_store.py")
DATA_CHECK = Setting(30.0, "s", "between looks for a changed dataset (0: none)",
    "every replica serves new data within that long though the webhook reached one",
    "components/runtime/environment.py", "DATA_CHECK_SECONDS")
DATASET_REFRESH = Setting(3600.0, "s", "between rereads of the dataset, whatever its file list says",
    "the live dataset is reread every hour in any case, besides the looks and the webhook",
    "components/sources/dataset_store.py DatasetStore.refresh_seconds")
DATASET_READ_TIMEOUT = Setting(120.0, "s", "one read of the dataset, past which it is abandoned",
    "a read that hangs is abandoned (and counted), and the data being served stays",
    "components/sources/dataset_store.py DatasetStore.read_timeout")
RANKINGS_REFRESH = Setting(3600.0, "s", "between fetches of the Hub's rankings", "hourly, like the dataset",
    "components/sources/rankings_store.py RankingsStore.refresh_seconds")
RANKINGS_READ_TIMEOUT = Setting(20.0, "s", "one fetch of the Hub's rankings, past which it is abandoned",
    "one Hub listing per task and ranking", "components/sources/rankings_store.py RankingsStore.read_timeout")
RANKING_SIZE = Setting(100, "models", "models fetched per task in each Hub ranking",
    "the trending and downloads views rank a task's top models", "components/sources/rankings_store.py fetch_live")
HUB_LISTING_TIMEOUT = Setting(30.0, "s", "listing the Hub dataset", "one call; the file reads have huggingface_hub's own timeouts",
    "components/sources/listing.py")
ABANDONED_READS = Setting(3, "reads", "reads still running past their timeout, past which no refresh is tried",
    "each holds a thread and a socket", "components/sources/refresh.py")
RETRY_FIRST = Setting(15.0, "s", "the wait before a failed source is tried again, doubling with each failure in a row",
    "after a failure the next attempt comes sooner than the period, backing off exponentially",
    "components/sources/refresh.py Backoff.first")
RETRY_CAP = Setting(600.0, "s", "the longest wait between attempts at a failing source (never past its own period)",
    "the same: a source that stays down is still tried every 10 minutes, and the log says when the wait reaches this", "components/sources/refresh.py Backoff.cap")
RECORD_LOOKUP_TIMEOUT = Setting(8.0, "s", "one Hub record look-up", "the Hub is asked in the background, never on a request",
    "components/sources/records_store.py RecordsStore.timeout")
RECORD_LOOKUP_WORKERS = Setting(4, "look-ups", "Hub record look-ups at once", "the same",
    "components/sources/records_store.py RecordsStore.workers")
RECORD_LOOKUPS_QUEUED = Setting(256, "ids", "ids waiting for a Hub look-up", "the same",
    "components/sources/records_store.py RecordsStore.max_pending")
RECORD_LOOKUP_BATCH = Setting(32, "ids", "ids looked up in one refresh of the records",
    "a batch is looked up under one read timeout (its look-ups in rounds of RECORD_LOOKUP_WORKERS)",
    "components/sources/records_store.py RecordsStore.batch")
RECORDS_LIVE = Setting(4096, "records", "records fetched from the Hub kept, the oldest dropped first",
    "anyone can look up real Hub ids, each a record kept", "components/sources/records_store.py RecordsStore.max_live")
RECORD_LOOKUPS_A_MINUTE = Setting(256, "ids", "new ids queued for a Hub look-up a minute",
    "anyone can name new ids, each a Hub call", "components/sources/records_store.py")
RECORD_LOOKUP_WINDOW = Setting(60.0, "s", "the window RECORD_LOOKUPS_A_MINUTE counts in", "a minute",
    "components/sources/records_store.py")
UNKNOWN_IDS = Setting(4096, "ids", "ids whose missing record's reason is kept",
    "each distinct unknown id was kept for ever", "components/sources/records.py")
HUB_ID = Setting(96, "characters", "a Hub model id", "the Hub's own limit on a repo name", "components/sources/records.py")
BASE_MODELS = Setting(8, "models", "base models read from a record",
    "a merge may name many parents; the evidence needs only the first few", "components/sources/records.py")
BASE_HOPS = Setting(3, "hops", "base-model links followed for evidence", "the nearest base model run on the stack is the evidence; a long chain says little",
    "components/queries/evidence.py")
SOURCE_ERROR = Setting(200, "characters", "an error message the app writes", "display-safe and one line",
    "components/sources/errors.py")
MEMO_BYTES = Setting(64 * MB, "bytes", "computed answers one snapshot keeps (views, comparisons, charts)",
    "256 cached 10,000-row answers held gigabytes; each entry is weighed once", "components/sources/snapshot.py Snapshot")
VOCABULARY_COMPACT = Setting(1000, "texts", "unused texts before a file cache's vocabulary is compacted (and over half of it)",
    "a vocabulary is compacted when more than half of it, and more than this many texts, is no longer used", "components/sources/file_cache.py FileCache")
VERSION_KEYS = Setting(4096, "versions", "parsed version texts kept",
    "a version text is parsed once; a link's made-up versions cannot grow it past this", "components/domain/versions.py version_key")
MALLOC_ARENAS = Setting(2, "arenas", "glibc heap arenas", "a refresh's freed memory goes back to the system",
    "components/runtime/memory.py")

# -- wanted (docs/wanted.md)
WANTED_IDS = Setting(10_000, "ids", "wanted: model ids counted, the rarest dropped first",
    "a flood of made-up ids must not grow memory, nor push out the models many people ask for",
    "components/sources/wanted_counts.py")
WANTED_SEEN = Setting(200_000, "pairs", "wanted: (address, model) hashes remembered a day (~15 MB)",
    "each address counts once a model a day; that memory is bounded too", "components/sources/wanted_counts.py")
WANTED_UNCHECKED = Setting(1000, "ids", "wanted: ids held until the Hub confirms them",
    "anyone can make up ids, so what waits for the Hub's answer is bounded", "components/sources/wanted_counts.py")
WANTED_DAYS = Setting(30, "days", "wanted: days counted", "the ranking is of what people ask now",
    "components/sources/wanted_counts.py")
WANTED_TOP = Setting(100, "models", "wanted: models ranked", "the page, /api/v1/wanted and /wanted.atom show the top",
    "components/queries/wanted.py")
WANTED_COMMIT_EVERY = Setting(10, "minutes", "wanted: between commits to WANTED_REPO",
    "few commits, far below the Hub's rate limits", "components/sources/wanted_store.py")
WANTED_FILE = Setting(32 * MB, "bytes", "wanted: a file read back", "a replica writes a few KB a day",
    "components/sources/wanted_store.py")
WANTED_LINE = Setting(512, "characters", "wanted: a line read back", "a longer line is not one this app wrote",
    "components/sources/wanted_store.py")

# -- what an answer shows
MODELS_ROWS = Setting(2000, "rows", "rows the Models page holds", "the page stays light; the API and downloads give every row",
    "components/web/gradio/pages/models.py")
MODELS_PAGE = Setting(100, "rows", "rows the Models page adds at a time", "the same",
    "components/web/gradio/pages/models.py")
FIRST_ROWS = Setting(10, "rows", "rows painted before any script", "the rows of the first screen",
    "components/queries/preview.py")
PREVIEW_ERROR = Setting(160, "characters", "a FAIL's last error line in the painted preview", "the preview shows one line of it",
    "components/queries/preview.py")
COMPARE_ROWS = Setting(200, "rows", "rows per section on Compare", "/compare lists them all",
    "components/web/html/comparison.py")
ARCHITECTURE_MODELS = Setting(12, "models", "models listed per architecture", "the rest are counted; the API lists them all",
    "components/web/html/architectures.py")
CAUSE_MODELS = Setting(60, "models", "models listed per cause", "the rest are counted; the API lists them all",
    "components/web/html/causes.py")
CHART_CAUSES = Setting(8, "causes", "causes drawn in the failures chart", "the causes that block the most models over all stacks, and each library's first cause; the Failures page lists every cause",
    "components/web/figures/causes.py")
CHART_ORGS = Setting(20, "organisations", "organisations in the pass-rate chart", "the chart shows the organisations with the most models; the table lists every model",
    "components/queries/charts.py")
ERROR_SHOWN = Setting(50_000, "characters", "an error shown on the page", "a traceback can be megabytes",
    "components/web/html/details.py")
ERROR_PREVIEW_LINES = Setting(6, "lines", "an error shown whole, at most (and under 600 characters)", "a longer one is folded under its last line",
    "components/web/html/details.py")
ERROR_PREVIEW_CHARS = Setting(600, "characters", "an error shown whole, at most (and at most ERROR_PREVIEW_LINES)",
    "a longer one is folded under its last line", "components/web/html/details.py _error_block")
ERROR_SUMMARY = Setting(300, "characters", "a folded error's last line, shown as its summary", "one line",
    "components/web/html/details.py _error_block")
RESULT_SHOWN = Setting(40, "characters", "a recorded result the app does not know, on a result's badge",
    "a badge is a word; the dataset may hold anything", "components/web/html/markup.py badge")
SKIPPED_FILES_SHOWN = Setting(50, "files", "unreadable dataset files listed under the notice", "the rest are counted",
    "components/web/html/notice.py header")
CHART_CAUSE_LABEL = Setting(40, "characters", "a cause's label in the failures chart (an error's text when it has no code)",
    "an axis label stays one line", "components/web/figures/causes.py _label")
CHART_CAUSE_EXAMPLE = Setting(120, "characters", "a cause's example error in the failures chart's hover",
    "a hover is a few lines; the Failures page shows the whole error", "components/web/figures/causes.py _causes_figure")
CARD_TEXT = Setting(2000, "characters", "a text wrapped onto a preview card",
    "a card shows a few lines; wrapping a megabyte of a dataset's text would cost seconds", "components/web/figures/card.py _lines")
ERROR_LINES_READ = Setting(2000, "lines", "a traceback's last lines read for its cause", "the end of a traceback says what broke",
    "components/queries/causes.py")
ERROR_LINE_READ = Setting(1000, "characters", "a traceback line read for its cause", "a huge text is read from its last lines only, each cut",
    "components/queries/causes.py")
CAUSE_SUMMARY = Setting(200, "characters", "a cause's summary", "one line", "components/queries/causes.py")
EXCEPTION_NAME = Setting(120, "characters", "an exception type's name", "a longer name is a line of data, not an exception",
    "components/queries/causes.py")
REPORT_URL = Setting(8 * KB, "bytes", "a bug report link", "a link to GitHub's new-issue form must stay a usable address",
    "components/queries/report.py")
REPORT_ERROR_LINES = Setting(40, "lines", "error lines in a bug report link, before the size trims them",
    "the end of a traceback says what broke", "components/queries/report.py")
REPORT_ERROR_LINE = Setting(300, "characters", "an error line in a bug report link", "the same",
    "components/queries/report.py")
REPORT_TITLE = Setting(120, "characters", "a bug report's title", "cut with an ellipsis; the body carries the rest",
    "components/queries/report.py")
RUN_REQUEST_URL = Setting(8 * KB, "bytes", "a link asking for a model to be tested", "a usable address",
    "components/queries/run_request.py")
FEED_ENTRIES = Setting(50, "entries", "the feed", "only the newest changes are news",
    "components/queries/feed.py")
BADGE_RESULT = Setting(24, "characters", "a recorded result the app does not know, on a badge", "it must fit a badge",
    "components/queries/badge.py")
DATA_STALE = Setting(24, "hours", "data older than this is called stale on the page",
    "the live dataset is reread every hour: a day without a successful read means the Hub has been failing for a day",
    "components/queries/freshness.py STALE_AFTER")
LOOKUP_WAIT = Setting(3.0, "s", "/lookup waits for a Hub record", "a page never waits; a program gets the record if the Hub is quick",
    "components/queries/api.py")
# fmt: on

TABLE: dict[str, Setting[int] | Setting[float]] = {
    name: value for name, value in globals().items() if isinstance(value, Setting)
}


def markdown() -> str:
    """The table as `docs/limits.md` prints it, one row a setting, in the order declared here."""
    rows = []
    for name, s in TABLE.items():
        env = f"; env `{s.env}`" if s.env else ""
        module, _, local = s.where.partition(" ")
        where = f"`{module}` `{local}`" if local else f"`{module}`"
        rows.append((f"`{name}`", s.bounds, f"{s.shown()}{env}", where, s.why))
    return table(("setting", "bound", "value", "where", "why"), rows)


if __name__ == "__main__":
    print_when_asked("components.runtime.settings", markdown)
