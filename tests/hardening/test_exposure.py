"""What the launched app exposes: Gradio's file routes serve none of the source, the data or the
system, whatever the path tricks; no token or local path appears in pages, API answers or messages."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from gradio_client.exceptions import AppError
from playwright.sync_api import Page, expect

from components.sources.errors import describe_error
from tests.helpers import ROOT, Server, read_files

FAKE_TOKEN = "hf_FAKEtokenFAKEtokenFAKEtoken12"
TOKEN_LIKE = re.compile(r"hf_[A-Za-z0-9]{10,}")
SECRETS_MARKER = "secret-location"  # a folder name that must never reach a user


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    """A local dataset folder and an HF_HOME holding a token file, both somewhere private."""
    base = tmp_path_factory.mktemp(SECRETS_MARKER)
    dataset = base / "data"
    shutil.copytree(ROOT / "data" / "sample", dataset)
    hf_home = base / "hf-home"
    hf_home.mkdir()
    (hf_home / "token").write_text(FAKE_TOKEN)
    return dataset, hf_home


def launch(dataset: Path, hf_home: Path, **env) -> Server:
    env = {"HF_TOKEN": FAKE_TOKEN, "HF_HOME": str(hf_home), **env}
    return Server(
        "--dataset", str(dataset), "--rankings", str(ROOT / "data" / "rankings_snapshot.json"), env=env
    ).wait()


@pytest.fixture(scope="module")
def exposed_app(places):
    server = launch(*places)
    yield server, places
    server.stop()


@pytest.fixture(scope="module")
def misconfigured_app(places):
    """The same app with GRADIO_ALLOWED_PATHS opening the app folder, the data and HF_HOME by mistake."""
    dataset, hf_home = places
    server = launch(dataset, hf_home, GRADIO_ALLOWED_PATHS=",".join(map(str, (ROOT, dataset, hf_home))))
    yield server, places
    server.stop()


def probes(dataset: Path, hf_home: Path) -> list[str]:
    """Paths that must not be served, plainly and with traversal and encoding tricks."""
    sample = next((ROOT / "data" / "sample").glob("*.parquet"))
    data_file = next(dataset.glob("*.parquet"))
    plain = [
        "app.py", "./app.py", "components/store.py", "components/../app.py", "README.md", ".git/config",
        "requirements.txt", "assets/../app.py", f"data/sample/{sample.name}", "data/rankings_snapshot.json",
        str(ROOT / "app.py"), str(ROOT / "components" / "sources" / "dataset.py"), str(sample), str(data_file), str(hf_home / "token"),
        "/etc/passwd", "//etc/passwd", "/proc/self/environ", "/proc/self/cmdline", "../../../../../../etc/passwd",
        "/tmp/gradio/../../etc/passwd", f"{ROOT}/assets/../app.py", "app.py%00.png", "\\etc\\passwd",
    ]  # fmt: skip
    encoded = [
        "..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd", "%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "%2Fetc%2Fpasswd",
        "..%252F..%252F..%252Fetc%252Fpasswd", quote(str(ROOT / "app.py"), safe=""), quote(str(data_file), safe=""),
        "%2e%2e%2f" * 8 + "etc%2fpasswd", "..%5c..%5c..%5cetc%5cpasswd",
    ]  # fmt: skip
    return [quote(p, safe="/%\\") for p in plain] + encoded


FORBIDDEN_CONTENT = (b"root:x:0:0", b"import gradio", b"from __future__", b"PAR1", FAKE_TOKEN.encode(), b"[core]")


def assert_refused(url: str, path: str) -> None:
    for prefix in ("/gradio_api/file=", "/gradio_api/file/", "/file=", "/file/"):
        response = httpx.get(url + prefix + path, timeout=10)  # a new connection each time
        assert response.status_code in (400, 403, 404), (prefix, path, response.status_code)
        assert not any(marker in response.content for marker in FORBIDDEN_CONTENT), (prefix, path)


@pytest.mark.app  # its app is asked for by name, which tests/conftest.py cannot see
@pytest.mark.parametrize("which", ["default", "misconfigured"])
def test_file_routes_serve_no_source_data_token_or_system_file(which, request):
    server, (dataset, hf_home) = request.getfixturevalue(f"{'exposed' if which == 'default' else 'misconfigured'}_app")
    for path in probes(dataset, hf_home):
        if which == "misconfigured" and "etc" in path:
            continue  # the misconfiguration opens only the app's own folders
        assert_refused(server.url, path)


def test_the_file_route_is_not_a_proxy_to_local_addresses(exposed_app):
    server, _ = exposed_app
    for target in (f"{server.url}/config", "http://127.0.0.1:1/", "http://localhost/etc/passwd", "file:///etc/passwd"):
        response = httpx.get(f"{server.url}/gradio_api/file={target}", timeout=10)
        assert response.status_code in (400, 403, 404), (target, response.status_code)


def test_uploads_are_refused(exposed_app):
    server, _ = exposed_app
    for content in (b"<script>1</script>", b"<script>1</script>" * 1000):
        answer = httpx.post(f"{server.url}/gradio_api/upload", files={"files": ("x.html", content, "text/html")})
        assert answer.status_code == 403 and answer.json() == {"error": "this app takes no uploads"}


def leaks(text: str, dataset: Path) -> list[str]:
    found = []
    for needle in (
        str(ROOT),
        str(dataset),
        str(dataset.parent),
        SECRETS_MARKER,
        FAKE_TOKEN,
        os.path.expanduser("~") + "/",
    ):
        if needle in text:
            found.append(needle)
    found += TOKEN_LIKE.findall(text)
    return found


def test_no_token_or_local_path_in_pages_schemas_and_answers(exposed_app):
    from gradio_client import Client

    server, (dataset, _) = exposed_app
    for route in ("/", "/config", "/gradio_api/info", "/gradio_api/openapi.json", "/gradio_api/mcp/schema",
                  "/?view=<script>&model=../../etc/passwd", "/gradio_api/startup-events"):  # fmt: skip
        response = httpx.get(server.url + route, timeout=20)
        assert response.status_code == 200, route
        assert leaks(response.text, dataset) == [], route
    client = Client(server.url, verbose=False)
    answers = [
        client.predict(api_name="/stacks"),
        client.predict(api_name="/search"),
        client.predict(query="qwen", view="trending", api_name="/search"),
        client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup"),
        client.predict(api_name="/compare"),
    ]
    with pytest.raises(AppError, match="cannot be a Hub model id") as refused:  # its error quotes it, and no more
        client.predict(model_id="../../etc/passwd", api_name="/lookup")
    assert leaks(repr(answers) + str(refused.value), dataset) == []


def test_error_answers_carry_no_traceback_path_or_token(exposed_app):
    server, (dataset, _) = exposed_app
    bad_calls = [
        ("lookup", []),
        ("compare", [{"x": 1}, [1], None, 3.5]),
        ("search", "not a list"),
        ("no-such-endpoint", []),
    ]
    for name, data in bad_calls:
        posted = httpx.post(f"{server.url}/gradio_api/call/{name}", json={"data": data}, timeout=20)
        text = posted.text
        if posted.status_code == 200:
            text = httpx.get(f"{server.url}/gradio_api/call/{name}/{posted.json()['event_id']}", timeout=20).text
            assert "event: error" in text, (name, text[:200])
        assert "Traceback" not in text and 'File "' not in text, (name, text[:300])
        assert leaks(text, dataset) == [], name


def test_the_header_names_the_data_folder_not_its_path(exposed_app, page: Page):
    server, (dataset, _) = exposed_app
    page.goto(server.url)
    header = page.locator("#header")
    expect(header).to_contain_text("Local dataset 'data'", timeout=20_000)
    assert leaks(page.content(), dataset) == []


def test_messages_about_unreadable_files_name_the_file_not_its_folder():
    folder = f"/srv/{SECRETS_MARKER}/data"

    def opener(name):
        raise PermissionError(13, "Permission denied", f"{folder}/{name}")

    snapshot = read_files(["a.parquet"], opener, source="data", kind="local")
    reason = snapshot.skipped[0].reason
    assert "a.parquet" in reason and SECRETS_MARKER not in reason and "/srv" not in reason
    message = describe_error(OSError(f"cannot open {folder}/x with {FAKE_TOKEN} at https://huggingface.co/api/x"))
    assert SECRETS_MARKER not in message and FAKE_TOKEN not in message
    assert "https://huggingface.co/api/x" in message  # URLs are kept: they say what was unreachable
