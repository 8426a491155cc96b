"""Hostile request bodies at the HTTP door (issue 26, item 6), through the real binary: JSON nested
as deep as the body limit allows, JSON as large as it allows, and many connections that send a
head and then their body a byte at a time, or never.

Bounds asserted: each hostile JSON body is answered 400 within 2 s; `GET /v1/capabilities` sent
meanwhile answers within 1 s; 200 slow bodies hold no worker thread (capabilities within 1 s while
they are open) and are closed within `server.requestTimeout` (2 s here) plus 2 s; a token
registered before is still there after."""
import concurrent.futures
import json
import socket
import time

import pytest

from nodeclient import Account, webpush_token
from pushnode_node import Node

BODY_LIMIT = 4 * 1024 * 1024


@pytest.fixture(scope="module")
def node(pushnode_bin):
    n = Node(pushnode_bin, env={"PUSHNODE_SERVER_REQUEST_TIMEOUT": "2s", "PUSHNODE_WEBPUSH_ALLOW_PRIVATE_ENDPOINTS": "true"})
    yield n
    n.stop()


@pytest.fixture(scope="module")
def owner(node):
    account = Account()
    assert account.call(node, "POST", "/v1/tokens", webpush_token("kept"))[0] == 200
    return account


def capabilities_within_a_second(node):
    started = time.monotonic()
    status, _, _ = node.request("GET", "/v1/capabilities")
    return status == 200 and time.monotonic() - started < 1.0


def hostile_notify(node, body):
    """Sends a signed Notify with `body`, and capabilities meanwhile; returns (status, code, seconds)."""
    account = Account()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        started = time.monotonic()
        answer = pool.submit(account.call, node, "POST", "/v1/notify", raw=body)
        time.sleep(0.05)
        assert capabilities_within_a_second(node)
        status, parsed, _ = answer.result(timeout=30)
        return status, (parsed or {}).get("error", {}).get("code"), time.monotonic() - started


@pytest.mark.parametrize("shape", ["arrays", "objects", "in a field"])
def test_json_nested_as_deep_as_the_body_allows_is_refused_quickly(node, owner, shape):
    depth = BODY_LIMIT // 8
    body = {
        "arrays": b"[" * depth + b"]" * depth,
        "objects": b'{"a":' * depth + b"1" + b"}" * depth,
        "in a field": b'{"topics":' + b"[" * depth + b"]" * depth + b"}",
    }[shape]
    status, code, seconds = hostile_notify(node, body)
    assert (status, code) == (400, "request.malformed"), (status, code)
    assert seconds < 2.0, seconds
    assert len(owner.call(node, "GET", "/v1/tokens")[1]["registrations"]) == 1


def test_json_as_large_as_the_body_allows_is_refused_quickly(node, owner):
    topic = {"spaceKey": "x" * 44, "topic": "t", "signature": "A" * 88}
    count = (BODY_LIMIT - 100) // (len(json.dumps(topic, separators=(",", ":")).encode()) + 1)
    body = json.dumps({"topics": [topic] * count, "message": {}}, separators=(",", ":")).encode()
    assert len(body) <= BODY_LIMIT
    status, code, seconds = hostile_notify(node, body)
    assert status == 400, (status, code)
    assert seconds < 2.0, seconds
    assert len(owner.call(node, "GET", "/v1/tokens")[1]["registrations"]) == 1


def test_many_slow_bodies_hold_no_thread_and_are_closed_at_the_request_timeout(node, owner):
    sockets = []
    for _ in range(200):
        sock = socket.create_connection(("127.0.0.1", node.port))
        sock.sendall(b"POST /v1/notify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"topics\":")
        sockets.append(sock)
    opened = time.monotonic()
    assert capabilities_within_a_second(node)
    assert len(owner.call(node, "GET", "/v1/tokens")[1]["registrations"]) == 1
    for sock in sockets:
        sock.settimeout(max(0.1, opened + 4.0 - time.monotonic()))
        try:
            while sock.recv(65536):
                pass
        except ConnectionResetError:
            pass
        sock.close()
    assert time.monotonic() - opened < 4.5
    assert capabilities_within_a_second(node)
