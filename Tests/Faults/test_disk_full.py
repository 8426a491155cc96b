"""A full disk under a running node on SQLite (PROTOCOL §3.2 `storage.unavailable`), through the real
binary: the data directory is a small tmpfs that a filler file fills while signed Notify calls keep
coming. Every answer is 200 or 503 `storage.unavailable` with `Retry-After` — never a 4xx, never a
500 — and `/readyz` is 503 `storage_unavailable` while the disk is full, though reads still work
(PROTOCOL §3.3). Once the filler is gone `/readyz` is 200 again with nobody writing (its own probe
finds that writes work), Notify succeeds again, and every Notify answered 200 is delivered.

It mounts a file system, so it needs root (CAP_SYS_ADMIN): `make fault-test` runs it; it is not part
of `make test`, which must pass on machines where mounting is not allowed."""
import base64
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Interop"))

from mockproviders_helper import MockProviders  # noqa: E402
from pushnode_node import Node, wait_for  # noqa: E402
from pushnode_signatures import sign_with_library  # noqa: E402
from test_delivery_e2e import Account, Space, body_of, node_env, uid  # noqa: E402


@pytest.fixture
def small_disk():
    directory = tempfile.mkdtemp(prefix="pushnode-disk-")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", directory], check=True)
    yield directory
    subprocess.run(["umount", "-l", directory], check=False)


def fill(directory):
    """Writes a file until the file system is full; returns its path."""
    path = os.path.join(directory, "filler")
    # Unbuffered: a write the disk cannot take fails in the loop, not when the file is closed.
    with open(path, "wb", buffering=0) as f:
        chunk = b"\0" * 65536
        try:
            while True:
                f.write(chunk)
        except OSError:
            pass
    return path


def readyz(node):
    status, _, answer = node.json("GET", "/readyz")
    return status, answer["status"]


def notify(account, space, index):
    """A signed Notify with a 2,400-byte payload: (status, answer, headers)."""
    payload = os.urandom(2400)
    document = {"topics": [space.topic("chats")], "groupId": f"g{index}",
                "message": {"keyId": hashlib.sha256(b"k").hexdigest(), "payload": base64.b64encode(payload).decode(),
                            "signature": base64.b64encode(account.private.sign(payload)).decode()}}
    body = json.dumps(document).encode()
    _, headers = sign_with_library(account.seed, "POST", "/v1/notify", None, body, nonce="disk-" + os.urandom(12).hex())
    headers["content-type"] = "application/json"
    status, response_headers, data = account.node.request("POST", "/v1/notify", headers=headers, body=body)
    return status, json.loads(data), response_headers


def test_a_full_disk_is_503_storage_unavailable_and_loses_nothing(small_disk, tmp_path):
    pushnode_bin = os.environ["PUSHNODE_BIN"]
    with MockProviders(tmp_path / "mock") as mock:
        node = Node(pushnode_bin, env=node_env(mock), data_dir=os.path.join(small_disk, "data"))
        try:
            sender, receiver, space = Account(node), Account(node), Space()
            tokens = [uid("disk-") for _ in range(4)]
            for index, token in enumerate(tokens):
                receiver.register("android", token, device=f"phone-{index}")
            receiver.subscribe(space, "chats")
            accepted = set()
            for i in range(5):
                status, answer, _ = notify(sender, space, i)
                assert status == 200, answer
                accepted.add(answer["id"])

            filler = fill(small_disk)
            refused = 0
            for i in range(5, 3000):
                status, answer, headers = notify(sender, space, i)
                if status == 200:
                    accepted.add(answer["id"])
                    continue
                assert status == 503 and answer["error"]["code"] == "storage.unavailable", (status, answer)
                assert int(headers["Retry-After"]) >= 1
                refused += 1
                if refused >= 20:
                    break
            assert refused >= 20, "the disk never filled"
            assert node.metric("pushnode_storage_failures_total") >= refused
            # Reads still work on a full disk; none of them (the probe's, a request's) ends the fault.
            assert readyz(node) == (503, "storage_unavailable")
            status, answer = receiver.call("GET", "/v1/subscriptions")
            assert status == 200 and [t["topic"] for t in answer["topics"]] == ["chats"], answer
            assert readyz(node) == (503, "storage_unavailable")
            assert node.metric("pushnode_storage_unavailable") == 1
            print(f"during the fault: /readyz 503 storage_unavailable; {len(accepted)} accepted, {refused} refused")

            os.remove(filler)
            # Nobody writes: /readyz's own write probe finds that writes work again.
            started = time.monotonic()
            wait_for(lambda: readyz(node) == (200, "ready"), timeout=30, interval=0.5,
                     message="/readyz 200 after the disk was freed, with no write traffic")
            print(f"after the filler was removed: /readyz 200 within {time.monotonic() - started:.1f} s, no writes sent")
            assert node.metric("pushnode_storage_unavailable") == 0
            status, answer, _ = notify(sender, space, 10_000)
            assert status == 200, answer
            accepted.add(answer["id"])
            for i in range(5):
                status, answer, _ = notify(sender, space, 20_000 + i)
                assert status == 200, answer
                accepted.add(answer["id"])
            assert readyz(node) == (200, "ready")

            def delivered(token):
                return {json.loads(body_of(r))["message"]["data"]["x-any-id"]
                        for r in mock.requests("fcm", token) if r["status"] == 200}
            for token in tokens:
                wait_for(lambda: delivered(token) >= accepted, timeout=120, interval=0.5,
                         message=f"every accepted Notify delivered to {token[:10]}")
            log = node.text_log()
            assert "event=storage_unavailable" in log and "event=storage_recovered" in log
        finally:
            node.stop()
