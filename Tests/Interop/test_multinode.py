"""Two `pushnode serve` processes on one PostgreSQL database (Tests/pg-cluster.sh; `make test`
sets PUSHNODE_TEST_PG_URL, and without it these tests fail): any node answers any request, from the
shared registrations, subscriptions, idempotency records, replay window and VAPID key. The kill test
kills one node with SIGKILL in the middle of deliveries: nothing lost, nothing sent by both at once."""
import base64
import http.client
import json
import os
import re
import signal
import subprocess
import tempfile
import time
import uuid

import pytest
from cryptography.hazmat.primitives.asymmetric import ed25519
from cryptography.hazmat.primitives import serialization

from mockproviders_helper import MockProviders
from pushnode_signatures import base58, key_from_seed, sign_with_library
from test_node_http import Node

SUBSCRIBER = bytes(range(1, 33))
SENDER = bytes(range(2, 34))
SPACE = ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(3, 35)))
SPACE_KEY = base58(SPACE.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))


def topic(name):
    return {"spaceKey": SPACE_KEY, "topic": name, "signature": base64.b64encode(SPACE.sign(name.encode())).decode()}


def signed(node, seed, method, path, document=None, nonce=None):
    """A signed request; returns (status, body, the exact headers and body sent)."""
    body = json.dumps(document).encode() if document is not None else b""
    _, headers = sign_with_library(seed, method, path, None, body, nonce=nonce or "n" + uuid.uuid4().hex)
    status, _, answer = node.json(method, path, headers=headers, body=body)
    return status, answer, (headers, body)


def notify_document(seed, name, payload=b"sealed payload stand-in: nonce, ciphertext and tag"):
    private, _, _ = key_from_seed(seed)
    return {"topics": [topic(name)], "kind": "message", "ttl": 600,
            "message": {"keyId": "c" * 64, "payload": base64.b64encode(payload).decode(),
                        "signature": base64.b64encode(private.sign(payload)).decode()}}


@pytest.fixture
def two_nodes(pushnode_bin, postgres_database):
    nodes = [Node(pushnode_bin, env=postgres_database.env()) for _ in range(2)]
    yield nodes
    for node in nodes:
        node.stop()


def test_two_nodes_share_one_database(two_nodes):
    a, b = two_nodes
    # One VAPID key for every node: the first node stored it, the second read it.
    assert a.json("GET", "/v1/capabilities")[2]["vapidPublicKey"] == b.json("GET", "/v1/capabilities")[2]["vapidPublicKey"]

    status, answer, sent = signed(a, SUBSCRIBER, "PUT", "/v1/subscriptions", {"topics": [topic("chats"), topic("calls")]})
    assert (status, answer) == (200, {"count": 2})
    status, answer, _ = signed(b, SUBSCRIBER, "GET", "/v1/subscriptions")
    assert status == 200
    assert sorted(t["topic"] for t in answer["topics"]) == ["calls", "chats"]

    # The same signed request replayed to the other node is refused: the nonce is in the shared window.
    headers, body = sent
    status, _, answer = b.json("PUT", "/v1/subscriptions", headers=headers, body=body)
    assert (status, answer["error"]["code"]) == (401, "auth.replayed")

    # A Notify retried through the other node is a duplicate of the first.
    document = notify_document(SENDER, "chats")
    status, first, _ = signed(a, SENDER, "POST", "/v1/notify", document)
    assert (status, first.get("duplicate")) == (200, False), first
    status, again, _ = signed(b, SENDER, "POST", "/v1/notify", document)
    assert (status, again) == (200, {"id": first["id"], "duplicate": True, "queued": 0})

    # Changes through B are seen through A at once (no per-node cache of subscriptions).
    status, answer, _ = signed(b, SUBSCRIBER, "POST", "/v1/subscriptions/remove",
                               {"topics": [{"spaceKey": SPACE_KEY, "topic": "calls"}]})
    assert (status, answer) == (200, {"count": 1})
    status, answer, _ = signed(a, SUBSCRIBER, "GET", "/v1/subscriptions")
    assert [t["topic"] for t in answer["topics"]] == ["chats"]


def test_nodes_started_together_agree(pushnode_bin, postgres_database):
    """Migrations under the advisory lock and the VAPID key insert race: four nodes at once."""
    # Start the processes first, then wait for each: the starts overlap.
    procs = []
    for _ in range(4):
        directory = tempfile.TemporaryDirectory()
        env = dict(os.environ, PUSHNODE_LISTEN="127.0.0.1:0", PUSHNODE_ADMIN_LISTEN="", PUSHNODE_DATA_DIR=os.path.join(directory.name, "data"),
                   **postgres_database.env())
        procs.append((directory, subprocess.Popen([pushnode_bin, "serve"], env=env,
                                                  stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)))
    keys = set()
    try:
        for _, proc in procs:
            port = None
            for line in proc.stderr:
                match = re.search(r"event=ready listen=127\.0\.0\.1:(\d+)", line)
                if match:
                    port = int(match.group(1))
                    break
            assert port, "a node did not start"
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/v1/capabilities")
            keys.add(json.loads(conn.getresponse().read())["vapidPublicKey"])
            conn.close()
    finally:
        for directory, proc in procs:
            proc.kill()
            proc.wait(timeout=30)
            directory.cleanup()
    assert len(keys) == 1


DELAY_MS = 250  # every provider answer comes late: deliveries are in flight when the kill lands
SLOW_MS = 3000  # two tokens answer later than the 2 s claim lease: only lease renewal keeps the other node off
USER_AGENT = re.compile(r"^pushnode/\S+ node/([0-9a-f]{8})$")


def node_tag(node):
    """The node-id prefix the node puts in its User-Agent (DeliveryUserAgent)."""
    with open(os.path.join(node.data_dir, "node-id")) as f:
        return f.read().strip()[:8]


def deliveries(mock):
    """The mock's FCM requests as (x-any-id, token, sender tag, received, answered or None)."""
    rows = []
    for r in mock.requests("fcm"):
        message = json.loads(base64.b64decode(r["body"]))["message"]
        agent = dict(r["headers"]).get("user-agent", "")
        match = USER_AGENT.match(agent)
        assert match, f"unexpected User-Agent {agent!r}"
        rows.append((message["data"]["x-any-id"], message["token"], match.group(1), r["time"], r["answered"],
                     r["status"]))
    return rows


def overlaps(rows, dead_tag, killed_at):
    """Pairs of requests for one (notification, token) from different nodes whose time on the wire
    overlaps. A request's interval is [received, answered]; the dead node's end at the kill at the
    latest (an answer the mock sent after the kill never reached it), a pending live one is open."""
    def interval(row):
        _, _, tag, start, answered, _ = row
        end = answered if answered is not None else float("inf")
        if tag == dead_tag:
            end = min(end, killed_at)
        return start, end

    by_delivery = {}
    for row in rows:
        by_delivery.setdefault((row[0], row[1]), []).append(row)
    found = []
    for group in by_delivery.values():
        for i, first in enumerate(group):
            for second in group[i + 1:]:
                if first[2] == second[2]:
                    continue
                (s1, e1), (s2, e2) = interval(first), interval(second)
                if s1 < e2 and s2 < e1:
                    found.append((first, second))
    return found


def test_killing_one_of_two_nodes_loses_no_delivery(pushnode_bin, postgres_database, tmp_path):
    with MockProviders(tmp_path / "mock") as mock:
        env = dict(postgres_database.env(), PUSHNODE_STORAGE_CLAIM_LEASE="2s",
                   PUSHNODE_FCM_CREDENTIALS_PATH=mock.ready["serviceAccountFile"], PUSHNODE_FCM_BASE_URL=mock.https,
                   PUSHNODE_TLS_CA_FILE=mock.ready["caFile"])
        a, b = Node(pushnode_bin, env=env), Node(pushnode_bin, env=env)
        dead_tag, survivor_tag = node_tag(a), node_tag(b)
        assert dead_tag != survivor_tag
        killed_at = None
        try:
            tokens = [f"fcm-token-{index:04d}" for index in range(10)]
            mock.control("POST", "/_mock/script", {"provider": "fcm", "tokens": tokens[2:], "responses": [],
                                                   "then": {"delayMs": DELAY_MS}})
            mock.control("POST", "/_mock/script", {"provider": "fcm", "tokens": tokens[:2], "responses": [],
                                                   "then": {"delayMs": SLOW_MS}})
            for index, token in enumerate(tokens):
                seed = bytes([index + 10] * 32)
                status, _, _ = signed(a if index % 2 else b, seed, "POST", "/v1/tokens",
                                      {"deviceId": f"d{index}", "platform": "android", "token": token})
                assert status == 200
                status, _, _ = signed(b if index % 2 else a, seed, "PUT", "/v1/subscriptions", {"topics": [topic("chats")]})
                assert status == 200
            accepted = []
            for index in range(40):
                document = notify_document(SENDER, "chats", payload=f"sealed payload stand-in number {index:04d} with a tag".encode())
                status, answer, _ = signed(a if index % 2 else b, SENDER, "POST", "/v1/notify", document)
                assert status == 200
                accepted.append(answer["id"])
                time.sleep(0.03)  # spread the Notify calls so both nodes deliver (and finish some) before the kill
                if index == 20:
                    a.proc.send_signal(signal.SIGKILL)  # in the middle of deliveries
                    a.proc.wait(timeout=30)
                    killed_at = time.time()  # after the process is gone: its intervals end no earlier
                    a, b = b, b  # the rest goes to the survivor
            # Every accepted notification reaches every token at least once (the survivor resumes the
            # dead node's claims after their lease).
            expected = {(notification_id, token) for notification_id in accepted for token in tokens}
            seen = set()
            deadline = time.time() + 120
            while time.time() < deadline and not expected <= seen:
                seen = {(row[0], row[1]) for row in deliveries(mock) if row[5] == 200 and row[4] is not None}
                time.sleep(0.2)
            assert expected <= seen

            # No delivery was in flight on both nodes at once.
            rows = deliveries(mock)
            assert {row[2] for row in rows} <= {dead_tag, survivor_tag}
            double = overlaps(rows, dead_tag, killed_at)
            assert not double, f"{len(double)} deliveries in flight on both nodes at once, e.g. {double[:3]}"

            # What the kill did: the dead node's requests cut by it, and those the survivor re-sent.
            by_dead = [row for row in rows if row[2] == dead_tag]
            cut = {(row[0], row[1]) for row in by_dead if row[4] is None or row[4] > killed_at}
            resent = {(row[0], row[1]) for row in rows if row[2] == survivor_tag} & {(row[0], row[1]) for row in by_dead}
            print(f"requests={len(rows)} dead-node={len(by_dead)} cut-by-kill={len(cut)} "
                  f"re-sent-by-survivor={len(resent)} cut-and-re-sent={len(cut & resent)}")
            if os.environ.get("PUSHNODE_TEST_TIMELINE"):
                for row in sorted(rows, key=lambda r: r[3]):
                    print(row[0][:8], row[1], row[2], round(row[3] - killed_at, 3),
                          None if row[4] is None else round(row[4] - killed_at, 3))
            assert by_dead, "the killed node sent nothing: the test did not exercise two nodes"
            assert cut <= resent, "a delivery cut by the kill was not re-sent by the survivor"
        finally:
            for node in {id(a): a, id(b): b}.values():
                node.stop()
