"""A database outage under a running node (PROTOCOL §3.2 `storage.unavailable`): the node runs on its
own throwaway PostgreSQL cluster (Tests/pg-cluster.sh, not the shared test cluster), which is
halted under signed traffic and resumed. While it is down every answer is 503 `storage.unavailable`
with `Retry-After` — never a 4xx, which would make a client drop its message (the replay window lives
in the database; its failure once answered 401 `auth.replayed`) — and `/readyz` is 503; once it is
back, requests succeed again and `/readyz` is 200 without any other traffic."""
import os
import subprocess
import tempfile
import uuid

import pytest

from pushnode_node import Node, wait_for
from pushnode_signatures import sign_with_library
from test_multinode import SENDER, SUBSCRIBER, notify_document, signed, topic

PG_CLUSTER = os.path.join(os.path.dirname(__file__), "..", "pg-cluster.sh")


def pg_cluster(command, directory):
    proc = subprocess.run([PG_CLUSTER, command, directory], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.fixture
def cluster():
    directory = tempfile.mkdtemp(prefix="pushnode-fault-pg-")
    url = pg_cluster("start", directory)
    yield directory, url
    pg_cluster("stop", directory)


def payload(label):
    """A stand-in for a sealed payload: at least a nonce and a tag long."""
    return f"sealed payload stand-in: {label}".ljust(64).encode()


def readyz(node):
    status, _, answer = node.json("GET", "/readyz")
    return status, answer["status"]


def test_a_database_outage_is_503_storage_unavailable_and_recovers(pushnode_bin, cluster):
    directory, url = cluster
    node = Node(pushnode_bin, env={"PUSHNODE_STORAGE_DRIVER": "postgres", "PUSHNODE_STORAGE_URL": url})
    try:
        status, answer, _ = signed(node, SUBSCRIBER, "PUT", "/v1/subscriptions", {"topics": [topic("chats")]})
        assert (status, answer) == (200, {"count": 1})
        status, answer, _ = signed(node, SENDER, "POST", "/v1/notify", notify_document(SENDER, "chats", payload("before")))
        assert status == 200, answer
        assert readyz(node) == (200, "ready")
        assert node.metric("pushnode_storage_unavailable") == 0

        pg_cluster("halt", directory)
        answers = []
        for i in range(20):
            document = notify_document(SENDER, "chats", payload(f"during {i} {uuid.uuid4().hex}"))
            body = signed(node, SENDER, "POST", "/v1/notify", document)
            answers.append(body)
        answers.append(signed(node, SUBSCRIBER, "GET", "/v1/subscriptions"))
        for status, answer, _ in answers:
            assert status == 503, answer
            assert answer == {"error": {"code": "storage.unavailable", "message": "storage is unavailable; retry later"}}
        # Retry-After on every one: the raw response, since `signed` keeps only the body.
        for _ in range(3):
            _, headers = sign_with_library(SENDER, "GET", "/v1/subscriptions", None, b"", nonce="n" + uuid.uuid4().hex)
            status, response_headers, _ = node.request("GET", "/v1/subscriptions", headers=headers)
            assert status == 503
            assert int(response_headers["Retry-After"]) >= 1
        assert readyz(node) == (503, "storage_unavailable")
        assert node.metric("pushnode_storage_unavailable") == 1
        assert node.metric("pushnode_storage_failures_total") >= len(answers)

        pg_cluster("resume", directory)
        # No traffic needed: /readyz probes the database while the fault lasts.
        wait_for(lambda: readyz(node) == (200, "ready"), timeout=60, interval=0.2, message="/readyz 200 after the restart")
        for i in range(5):
            status, answer, _ = signed(node, SENDER, "POST", "/v1/notify", notify_document(SENDER, "chats", payload(f"after {i}")))
            assert status == 200, answer
        status, answer, _ = signed(node, SUBSCRIBER, "GET", "/v1/subscriptions")
        assert status == 200 and [t["topic"] for t in answer["topics"]] == ["chats"]
        assert node.metric("pushnode_storage_unavailable") == 0

        log = node.text_log()
        assert log.count("event=storage_unavailable") >= 1 and "event=storage_recovered" in log
        assert url not in log and "auth.replayed" not in log
    finally:
        node.stop()
