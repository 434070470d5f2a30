"""deploy/: the Dockerfile runs the README's one command and passes hadolint; the nginx configuration is
valid, sticks on the app's cookie and lets the app's Cache-Control decide what is kept; the Kubernetes
manifests pass their schemas and say which affinity they use. (No image is built on these machines.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from components.web import replicas
from components.web.middleware import origin
from tests.helpers import ROOT

DEPLOY = ROOT / "deploy"


def readme_command() -> tuple[str, str]:
    """The README's one command to run the app: its install part and its run part (the virtual environment it
    makes first is the image's own Python, so the image has no need of one)."""
    block = re.search(r"## Run it\n[^#]*?```bash\n(.+?)\n```", (ROOT / "README.md").read_text(), re.S)
    assert block is not None
    parts = [part.strip() for part in block.group(1).strip().split("&&")]
    (install,) = [part for part in parts if part.startswith("pip install")]
    return install, parts[-1]


def dockerfile_instructions() -> list[tuple[str, str]]:
    lines = [line for line in (DEPLOY / "Dockerfile").read_text().splitlines() if line and not line.startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines)).splitlines()
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip()) for line in joined if line[:1].isalpha()]


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is installed from requirements-dev.txt"
    return found


def test_the_image_installs_and_runs_exactly_as_the_readme_says():
    install, run = readme_command()
    steps = dockerfile_instructions()
    assert ("RUN", install) in steps
    (command,) = [json.loads(arg) for kind, arg in steps if kind == "CMD"]
    assert " ".join(command) == run == "python app.py"
    assert steps[0][0] == "FROM" and steps[0][1].startswith("python:") and steps[0][1].endswith("-slim")
    users = [arg for kind, arg in steps if kind == "USER"]
    assert users and users[-1] not in ("root", "0")  # the app never runs as root
    env = " ".join(arg for kind, arg in steps if kind == "ENV")
    assert "GRADIO_SERVER_NAME=0.0.0.0" in env  # reachable from outside the container


def test_hadolint_finds_nothing():
    done = subprocess.run([tool("hadolint"), str(DEPLOY / "Dockerfile")], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("manifest", sorted((DEPLOY / "kubernetes").glob("*.yaml")), ids=lambda p: p.name)
def test_each_manifest_passes_its_kubernetes_schema(manifest):
    import kubernetes_validate

    for resource in yaml.safe_load_all(manifest.read_text()):
        kubernetes_validate.validate(resource, kubernetes_validate.latest_version(), strict=True)


def manifests() -> list[dict]:
    return [
        doc for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")) for doc in yaml.safe_load_all(path.read_text())
    ]


def test_the_manifests_hold_the_deployment_together():
    kinds = {doc["kind"]: doc for doc in manifests() if doc["metadata"]["name"] == "torch-neuronx-support"}
    assert set(kinds) == {"Deployment", "Service", "HorizontalPodAutoscaler", "Ingress"}
    (app,) = kinds["Deployment"]["spec"]["template"]["spec"]["containers"]
    assert (
        app["readinessProbe"]["httpGet"]["path"] == "/readyz" and app["livenessProbe"]["httpGet"]["path"] == "/healthz"
    )
    env = {e["name"]: e for e in app["env"]}
    assert env["FORWARDED_ALLOW_IPS"]["value"] not in ("*", "") and env["REPLICA"]["valueFrom"]
    assert kinds["Deployment"]["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    # behind an Ingress a Service sees one address: the affinity is the Ingress's cookie, and the files say why
    assert kinds["Service"]["spec"]["sessionAffinity"] == "None"
    assert kinds["Ingress"]["metadata"]["annotations"]["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    for name in ("service.yaml", "ingress.yaml"):
        assert "Affinity:" in (DEPLOY / "kubernetes" / name).read_text()
    assert kinds["HorizontalPodAutoscaler"]["spec"]["scaleTargetRef"]["name"] == kinds["Deployment"]["metadata"]["name"]


def test_metrics_is_scraped_on_the_pod_and_never_routed_by_the_ingress():
    (app,) = [doc for doc in manifests() if doc["kind"] == "Deployment"]
    template = app["spec"]["template"]
    (port,) = template["spec"]["containers"][0]["ports"]
    assert template["metadata"]["annotations"] == {
        "prometheus.io/scrape": "true", "prometheus.io/port": str(port["containerPort"]), "prometheus.io/path": "/metrics",
    }  # fmt: skip
    ingresses = [doc for doc in manifests() if doc["kind"] == "Ingress"]
    routed = {
        (path["path"], path["pathType"]): ingress["metadata"].get("annotations", {})
        for ingress in ingresses
        for rule in ingress["spec"]["rules"]
        for path in rule["http"]["paths"]
    }
    assert set(routed) == {("/", "Prefix"), ("/metrics", "Prefix")}
    # the longer prefix wins in ingress-nginx; no client address is allowed on it
    assert routed[("/metrics", "Prefix")] == {"nginx.ingress.kubernetes.io/whitelist-source-range": "127.0.0.1/32"}


def nginx_directives(name: str) -> list[list[str]]:
    """Each `name` directive of deploy/nginx.conf, its arguments split (comments left out)."""
    text = (DEPLOY / "nginx.conf").read_text()
    active = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    return [found.split() for found in re.findall(rf"(?m)^\s*{name}\s+([^;]*);", active)]


def test_nginx_owns_the_forwarding_headers():
    """Issue 61: the client's X-Forwarded-Proto went through to replicas that trust nginx, and became the scheme
    of a page every later visitor got from the cache. nginx writes the two headers uvicorn reads from it and sends
    none of the others the app knows of (`origin.FORWARDING`) with a client's value."""
    set_headers = {args[0].lower(): " ".join(args[1:]) for args in nginx_directives("proxy_set_header")}
    assert set_headers["x-forwarded-for"] == "$proxy_add_x_forwarded_for"
    assert set_headers["x-forwarded-proto"] == "$scheme"
    cleared = {name for name, value in set_headers.items() if value == '""'}
    others = {name.decode() for name in origin.FORWARDING} - {"x-forwarded-proto"}
    assert others | {"x-real-ip"} <= cleared
    # the cache keys a page on what shapes it besides its Vary: the scheme and the Host as passed on
    assert nginx_directives("proxy_cache_key") == [["$scheme$http_host$request_uri"]]
    assert set_headers["host"] == "$http_host"


def test_nginx_does_not_route_metrics_on_its_listener():
    text = (DEPLOY / "nginx.conf").read_text()
    block = re.search(r"location /metrics \{([^}]*)\}", text)
    assert block is not None and block.group(1).split() == ["return", "404;"]


def filled_nginx_conf(run: Path, port: int = 8080) -> Path:
    text = (DEPLOY / "nginx.conf").read_text()
    text = text.replace("@@RUN@@", str(run)).replace("@@LISTEN@@", f"127.0.0.1:{port}")
    text = text.replace("@@SERVERS@@", "server 127.0.0.1:9 max_fails=1 fail_timeout=5s;")
    path = run / "nginx.conf"
    path.write_text(text)
    return path


def test_nginx_sticks_on_the_apps_cookie_and_honours_its_cache_control():
    text = (DEPLOY / "nginx.conf").read_text()
    active = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    assert "proxy_ignore_headers" not in active and "proxy_cache_valid" not in active
    assert f"map $cookie_{replicas.COOKIE} " in active and "hash $affinity consistent;" in active
    assert "ip_hash" not in active and "proxy_cache_lock on;" in active


def test_the_nginx_configuration_is_valid(tmp_path):
    nginx = os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(nginx, os.X_OK):
        pytest.skip("needs nginx (tests/nginx.sh installs it; tests/run.sh runs it)")
    conf = filled_nginx_conf(tmp_path)
    done = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(conf), "-e", "stderr"],
                          capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_local_sh_says_how_to_call_it():
    done = subprocess.run(["bash", str(DEPLOY / "local.sh"), "8080"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "usage: bash deploy/local.sh PORT N" in done.stderr
