"""The real `pushnode serve` binary over HTTP: operations routes, capabilities, request
authentication with Python-signed requests, body limits, `pushnode check`, and graceful
shutdown on SIGTERM. Standard library HTTP client only."""
import json
import socket

import pytest

from conftest import run_cli
from pushnode_node import Node
from pushnode_signatures import sign_with_library

SEED = bytes(range(1, 33))
# Every test here runs on SQLite and on PostgreSQL (PUSHNODE_TEST_PG_URL): see conftest.py.
RUN_ON_EVERY_STORE = True


@pytest.fixture
def node(pushnode_bin):
    n = Node(pushnode_bin)
    yield n
    n.stop()


def test_operations_routes_and_capabilities(node):
    assert node.json("GET", "/healthz")[::2] == (200, {"status": "ok"})
    status, _, ready = node.json("GET", "/readyz")
    assert status == 200 and ready["status"] == "ready" and ready["providers"] == {"webpush": "healthy"}
    assert list(ready["providerDetail"]) == ["webpush"] and set(ready["providerDetail"]["webpush"]) == {"state", "since"}
    status, _, caps = node.json("GET", "/v1/capabilities")
    assert status == 200
    assert caps["platforms"] == ["webpush"]
    assert caps["limits"] == {"maxPayloadBytes": 2816, "maxTopicsPerRequest": 256, "maxSubscriptions": 10000}
    assert caps["anysync"] == {"enabled": False}
    status, headers, metrics = node.request("GET", "/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
    assert b'pushnode_http_requests_total{route="/healthz",status="200"} 1' in metrics


def test_errors_are_protocol_json(node):
    status, _, body = node.json("GET", "/v1/unknown")
    assert (status, body["error"]["code"]) == (404, "not_found")
    status, headers, body = node.json("PATCH", "/v1/notify")
    assert (status, body["error"]["code"], headers["Allow"]) == (405, "method_not_allowed", "POST")


def test_python_signed_requests_pass_authentication(node):
    status, _, body = node.json("GET", "/v1/tokens")
    assert (status, body["error"]["code"]) == (401, "auth.missing")

    payload = b'{"topics":[]}'
    _, headers = sign_with_library(SEED, "PUT", "/v1/subscriptions", None, payload)
    status, _, body = node.json("PUT", "/v1/subscriptions", headers=headers, body=payload)
    # Authenticated and answered by the service: an empty set holds zero topics.
    assert (status, body) == (200, {"count": 0})
    status, _, body = node.json("PUT", "/v1/subscriptions", headers=headers, body=payload)
    assert (status, body["error"]["code"]) == (401, "auth.replayed")

    _, headers = sign_with_library(SEED, "POST", "/v1/tokens", None, payload, nonce="python-nonce-tampered-01")
    status, _, body = node.json("POST", "/v1/tokens", headers=headers, body=payload.replace(b"[]", b"[ ]"))
    assert (status, body["error"]["code"]) == (401, "auth.invalid_signature")

    _, headers = sign_with_library(SEED, "GET", "/v1/tokens", created=1_000_000_000, nonce="python-nonce-expired-01")
    status, _, body = node.json("GET", "/v1/tokens", headers=headers)
    assert (status, body["error"]["code"]) == (401, "auth.expired")


def test_a_body_over_max_body_bytes_is_413(pushnode_bin):
    n = Node(pushnode_bin, env={"PUSHNODE_LIMITS_MAX_BODY_BYTES": "100"})
    try:
        status, _, body = n.json("POST", "/v1/notify", body=b"x" * 101)
        assert (status, body["error"]["code"]) == (413, "request.too_large")
        # A raw head announcing a huge body is answered before any body byte is sent.
        with socket.create_connection(("127.0.0.1", n.port), timeout=30) as s:
            s.sendall(b"POST /v1/notify HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n")
            head = s.recv(4096)
        assert head.startswith(b"HTTP/1.1 413")
    finally:
        n.stop()


def test_admin_listener_takes_metrics(pushnode_bin):
    n = Node(pushnode_bin, env={"PUSHNODE_ADMIN_LISTEN": "127.0.0.1:0"})
    try:
        assert n.admin_port
        assert n.request("GET", "/metrics")[0] == 404
        assert n.request("GET", "/metrics", port=n.admin_port)[0] == 200
    finally:
        n.stop()


def test_sigterm_shuts_down_gracefully(pushnode_bin):
    n = Node(pushnode_bin)
    assert n.request("GET", "/healthz")[0] == 200
    code = n.stop()
    log = "".join(n.log)
    assert code == 0
    assert "event=shutdown stage=started" in log
    assert "event=shutdown stage=done" in log


def test_logs_carry_no_secrets(pushnode_bin):
    n = Node(pushnode_bin)
    payload = b'{"token":"SECRET-TOKEN-VALUE"}'
    _, headers = sign_with_library(SEED, "POST", "/v1/tokens", None, payload, nonce="python-nonce-secret-001")
    n.request("POST", "/v1/tokens", headers=headers, body=payload)
    n.request("GET", "/v1/tokens/SECRET-PATH-PART")
    n.stop()
    log = "".join(n.log)
    assert "event=http method=POST route=/v1/tokens" in log
    for secret in ("SECRET-TOKEN-VALUE", "SECRET-PATH-PART", headers["Signature"], "python-nonce-secret-001"):
        assert secret not in log


def test_check_prints_live_platforms(pushnode_bin, tmp_path):
    rc, out, _ = run_cli(pushnode_bin, "check")
    answer = json.loads(out)
    assert answer["platforms"] == ["webpush"] and answer["ok"] is True
    creds = tmp_path / "fcm.json"
    creds.write_text(json.dumps({"client_email": "a@b", "private_key": "k", "token_uri": "https://t"}))
    config = tmp_path / "config.yaml"
    config.write_text(f"fcm: {{credentialsPath: {creds}}}\n")
    answer = json.loads(run_cli(pushnode_bin, "check", "--config", str(config))[1])
    assert answer["platforms"] == ["android", "ios", "webpush"]
    assert answer["disabledProviders"] == ["apns", "huawei", "harmony"]


def test_check_fails_naming_the_key(pushnode_bin, tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("limits: {maxBodyBytes: lots}\nauth: {clockSkew: 300}\n")
    rc, out, err = run_cli(pushnode_bin, "check", "--config", str(config), check=False)
    assert rc == 2 and out == b""
    assert "limits.maxBodyBytes" in err and "auth.clockSkew" in err
    config.write_text("apns: {keyPath: /nonexistent.p8, keyId: K, teamId: T, topic: t}\n")
    rc, _, err = run_cli(pushnode_bin, "check", "--config", str(config), check=False)
    assert rc == 2 and "apns.keyPath" in err
    rc, _, err = run_cli(pushnode_bin, "serve", "--config", str(config), check=False)
    assert rc == 2 and "apns.keyPath" in err


def test_sigterm_right_after_ready_always_exits_cleanly(pushnode_bin):
    # Regression: signals were ignored between `event=ready` and the signal watcher starting,
    # so an early SIGTERM was lost (hang) or killed the process (-15).
    for _ in range(10):
        n = Node(pushnode_bin)
        assert n.stop() == 0, "".join(n.log)
