"""`pushnode client …` end to end through the real binary against a running `pushnode serve`.

What the CLI (and so PushClient) writes is checked independently: topics against Spec/any-compat.md
recomputed with hashlib, signatures with PyNaCl, sealed payloads opened with `cryptography`'s
AES-GCM, registration ids recomputed from PROTOCOL §3, and a Notify resent with a Python
RFC 9421 signature to see the node's idempotency. The delivery test (Web Push through the mock
providers) runs only once the node has a delivery engine (see `delivery_present`).
"""
import base64
import hashlib
import json
import os
import re
import subprocess
import time
import uuid

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from nacl.signing import VerifyKey

from conftest import run_cli
from pushnode_signatures import base58, key_from_seed, public_key_from_account_id, sign_with_library

try:  # the Node process class may move to a shared module
    from nodeproc import Node
except ImportError:
    from test_node_http import Node

# The any-compat vector's ACL material and the keys derived from it.
METADATA_KEY = "396d0ebf30bd03dbd4c5551b2025de8e1e96dde921cef1db2d6426a6ab2c498b"
READ_KEY = "f528f5fe41ccf5673e3d3f60f47197d9908bb29122adbc2b59fff905d21b5df2"
SPACE_KEY = "2LdP4HGLw6M8MFLGhiJYLrRwYrgQV7KeS9DeHraYULyn"
ENC_KEY_B64 = "r6PDov7icM+BiGNvGnLIcYmQlpiYFJ1pskSe4YzhUhM="
ENC_KEY_ID = "6336c88daa8dba7bb853429daba65beab16f0b3ebe4d9ab1c4d5de8eca0e48f8"
PROVIDER_BOUND = 2685


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Client:
    """Runs `pushnode client …` for one account against one node."""

    def __init__(self, binary, node, directory, name="alice"):
        self.binary = binary
        self.url = f"http://127.0.0.1:{node.port}"
        self.key_file = os.path.join(directory, f"{name}.key")
        out = self.json("account", "new", "--out", self.key_file, account=False)
        self.account_id = out["accountId"]
        with open(self.key_file) as f:
            self.seed = bytes.fromhex(f.read().strip())

    def run(self, *args, account=True, check=True):
        extra = ["--node", self.url, "--account", self.key_file] if account else []
        return run_cli(self.binary, "client", *args, *extra, check=check)

    def json(self, *args, account=True):
        _, out, _ = self.run(*args, account=account)
        return json.loads(out)

    def fails(self, *args):
        code, out, err = self.run(*args, check=False)
        assert code == 2 and out == b"", (code, out, err)
        return err

    def notify(self, *args):
        return self.json("notify", "--space-metadata-key", METADATA_KEY, "--read-key", READ_KEY, *args)


@pytest.fixture
def node(pushnode_bin):
    n = Node(pushnode_bin, env={"PUSHNODE_WEBPUSH_ALLOW_PRIVATE_ENDPOINTS": "true"})
    yield n
    n.stop()


@pytest.fixture
def alice(pushnode_bin, node, tmp_path):
    return Client(pushnode_bin, node, str(tmp_path), "alice")


def open_sealed(payload_b64):
    sealed = base64.b64decode(payload_b64)
    return sealed, json.loads(AESGCM(base64.b64decode(ENC_KEY_B64)).decrypt(sealed[:12], sealed[12:], None))


# ------------------------------------------------------------------------------ accounts, tokens

def test_account_new_writes_an_owner_only_seed_and_never_replaces_it(pushnode_bin, tmp_path):
    path = str(tmp_path / "a.key")
    _, out, _ = run_cli(pushnode_bin, "client", "account", "new", "--out", path)
    account = json.loads(out)
    assert set(account) == {"accountId", "path"}
    assert os.stat(path).st_mode & 0o777 == 0o600
    seed = bytes.fromhex(open(path).read().strip())
    assert key_from_seed(seed)[2] == account["accountId"]  # the seed is the account's (Python Ed25519)
    code, out, err = run_cli(pushnode_bin, "client", "account", "new", "--out", path, check=False)
    assert (code, out) == (2, b"") and "exists" in err
    _, out, _ = run_cli(pushnode_bin, "client", "account", "new")
    assert set(json.loads(out)) == {"accountId", "seed"}


def test_a_key_file_others_can_read_is_refused(alice):
    os.chmod(alice.key_file, 0o644)
    assert "accessible by others" in alice.fails("subscriptions")
    os.chmod(alice.key_file, 0o600)
    assert alice.json("subscriptions") == {"topics": []}


def test_token_set_list_revoke(alice):
    ua = ec.generate_private_key(ec.SECP256R1())
    p256dh = b64u(ua.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    endpoint = "http://127.0.0.1:9/push/e2e"
    out = alice.json("token", "set", "--device", "d1", "--platform", "webpush", "--token", endpoint,
                     "--p256dh", p256dh, "--auth", b64u(os.urandom(16)))
    # PROTOCOL §3: first 16 bytes of SHA-256(platform 0 appId 0 environment 0 token).
    expected = hashlib.sha256(b"webpush\0default\0\0" + endpoint.encode()).hexdigest()[:32]
    assert out == {"registrationId": expected}
    listed = alice.json("token", "list")["registrations"]
    assert [(r["registrationId"], r["deviceId"], r["platform"]) for r in listed] == [(expected, "d1", "webpush")]
    assert "token" not in listed[0]
    assert "platform.disabled" in alice.fails("token", "set", "--device", "d2", "--platform", "apns", "--token", "ab")
    assert alice.json("token", "revoke", "--device", "d1") == {"success": True}
    assert alice.json("token", "list") == {"registrations": []}
    assert alice.json("token", "revoke", "--device", "d1") == {"success": True}


# ------------------------------------------------------------------------------ subscriptions

def held(client):
    return {(t["spaceKey"], t["topic"]) for t in client.json("subscriptions")["topics"]}


def test_subscribe_by_mode_gives_the_any_compat_topic_sets(alice):
    me = alice.account_id
    sub = ("subscribe", "--space-metadata-key", METADATA_KEY)
    cases = [
        (["--mode", "all"], {"chats", me}),
        (["--mode", "mentions"], {me}),
        (["--mode", "none"], set()),
        # Once a chat overrides, every chat of the space gets per-chat topics.
        (["--mode", "all", "--chat", "c1=none", "--chat", "c2"], {f"chats/{sha('c2')}", f"chats/{sha('c2')}/{me}"}),
        (["--mode", "none", "--chat", "c1=mentions", "--chat", "c2"], {f"chats/{sha('c1')}/{me}"}),
        (["--mode", "mentions", "--chat", "c1=all"], {f"chats/{sha('c1')}", f"chats/{sha('c1')}/{me}"}),
    ]
    for args, topics in cases:
        out = alice.json(*sub, *args)
        assert out["spaceKey"] == SPACE_KEY
        assert set(out["topics"]) == topics, args
        assert out["count"] == len(topics)
        assert held(alice) == {(SPACE_KEY, t) for t in topics}, args


def test_subscribe_topics_adds_and_leaves_other_spaces_alone(alice):
    other = "11" * 32
    alice.json("subscribe", "--space-metadata-key", other, "--topic", "chats")
    out = alice.json("subscribe", "--space-metadata-key", METADATA_KEY, "--topic", "x", "--topic", "y")
    assert out["count"] == 3
    alice.json("subscribe", "--space-metadata-key", METADATA_KEY, "--mode", "none")
    assert [t for _, t in held(alice)] == ["chats"]
    assert "give --topic" in alice.fails("subscribe", "--space-metadata-key", METADATA_KEY)


# ------------------------------------------------------------------------------ notify and open

def test_notify_is_accepted_and_an_exact_resend_is_a_duplicate(alice, node):
    bob = "ABCw4rFBR7qU2HGzHwnKLYo9mMRcjGhFK28gSy58RKc5feqz"
    out = alice.notify("--chat", "bafyreichat", "--text", "hi é世", "--mention", bob, "--sender-name", "alice",
                       "--msg-id", "msg1", "--space-name", "Project", "--chat-name", "general")
    [request] = out["requests"]
    assert (request["path"], request["status"], request["duplicate"]) == ("/v1/notify", 200, False)

    body = json.loads(request["body"])
    s = sha("bafyreichat")
    assert [t["topic"] for t in body["topics"]] == ["chats", f"chats/{s}", f"chats/{s}/{bob}", bob]
    assert (body["groupId"], body["kind"]) == (s, "message")
    space_public = VerifyKey(base58_decode(SPACE_KEY))
    for topic in body["topics"]:
        assert topic["spaceKey"] == SPACE_KEY
        space_public.verify(topic["topic"].encode(), base64.b64decode(topic["signature"]))
    message = body["message"]
    assert message["keyId"] == ENC_KEY_ID
    sealed, payload = open_sealed(message["payload"])
    VerifyKey(public_key_from_account_id(alice.account_id)).verify(sealed, base64.b64decode(message["signature"]))
    assert payload == {"spaceId": SPACE_KEY, "spaceUxType": 0, "spaceType": 0, "senderId": alice.account_id, "type": 1,
                       "newMessage": {"chatId": "bafyreichat", "msgId": "msg1", "spaceName": "Project",
                                      "chatName": "general", "senderName": "alice", "text": "hi é世",
                                      "hasAttachments": False, "attachments": []}}

    # The exact bytes again, signed afresh in Python: the node's idempotency answers the first id.
    raw = request["body"].encode()
    _, headers = sign_with_library(alice.seed, "POST", "/v1/notify", None, raw, nonce="e2e-" + uuid.uuid4().hex)
    headers["Content-Type"] = "application/json"
    status, _, answer = node.json("POST", "/v1/notify", headers=headers, body=raw)
    assert (status, answer) == (200, {"id": request["id"], "duplicate": True, "queued": 0})


def base58_decode(text):
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    n = 0
    for c in text:
        n = n * 58 + alphabet.index(c)
    raw = n.to_bytes(32, "big")
    assert base58(raw) == text
    return raw


def test_two_reads_of_one_chat_are_both_new_and_carry_a_silent_marker(alice):
    answers = [alice.notify("--chat", "c1", "--kind", "silent", "--device", "d1")["requests"][0] for _ in range(2)]
    assert [(a["path"], a["duplicate"]) for a in answers] == [("/v1/notify/silent", False)] * 2
    assert answers[0]["id"] != answers[1]["id"]
    body = json.loads(answers[0]["body"])
    assert [t["topic"] for t in body["topics"]] == [alice.account_id]
    assert (body["groupId"], body["deviceId"], "kind" in body) == (sha("c1"), "d1", False)
    _, marker = open_sealed(body["message"]["payload"])
    assert marker["type"] != 1 and marker["newMessage"]["chatId"] == "c1"
    assert answers[0]["dataKeys"]["x-any-type"] == "silent"


def test_a_call_is_kind_call_with_the_ring_window(alice):
    [request] = alice.notify("--chat", "c1", "--text", "", "--kind", "call", "--ttl", "30")["requests"]
    body = json.loads(request["body"])
    assert (body["kind"], body["ttl"], request["dataKeys"]["x-any-type"]) == ("call", 30, "call")


def test_open_round_trips_what_notify_sealed(alice, pushnode_bin):
    [request] = alice.notify("--chat", "c9", "--text", "round trip ✓")["requests"]
    data = request["dataKeys"]
    assert set(data) == {"x-any-type", "x-any-id", "x-any-group-id", "x-any-payload", "x-any-signature", "x-any-key-id"}
    _, out, _ = run_cli(pushnode_bin, "client", "open", "--key", ENC_KEY_B64, "--data", json.dumps(data))
    opened = json.loads(out)
    assert (opened["opened"], opened["keyId"]) == (True, ENC_KEY_ID)
    assert opened["payload"]["newMessage"]["text"] == "round trip ✓"
    assert opened["payload"]["senderId"] == alice.account_id

    _, out, _ = run_cli(pushnode_bin, "client", "open", "--key", base64.b64encode(os.urandom(32)).decode(),
                        "--data", "-", stdin=json.dumps(data).encode())
    assert json.loads(out) == {"opened": False, "reason": "unknown_key", "keyId": ENC_KEY_ID}
    forged = dict(data, **{"x-any-signature": base64.b64encode(os.urandom(64)).decode()})
    code, out, err = run_cli(pushnode_bin, "client", "open", "--key", ENC_KEY_B64, "--data", json.dumps(forged), check=False)
    assert (code, out) == (2, b"") and "bad_signature" in err
    _, out, _ = run_cli(pushnode_bin, "client", "open", "--key", ENC_KEY_B64,
                        "--data", json.dumps({"x-any-type": "silent", "x-any-group-id": "g"}))
    assert json.loads(out) == {"opened": False, "reason": "no_message"}


def test_a_maximal_message_is_sealed_within_the_provider_bound(alice):
    [request] = alice.notify("--chat", "c1", "--text", "世" * 3000, "--sender-name", "n" * 200)["requests"]
    sealed, payload = open_sealed(json.loads(request["body"])["message"]["payload"])
    assert PROVIDER_BOUND - 3 < len(sealed) <= PROVIDER_BOUND
    assert payload["newMessage"]["text"].endswith("...")


def test_bad_input_exits_2(alice, pushnode_bin):
    assert "--kind" in alice.fails("notify", "--space-metadata-key", METADATA_KEY, "--read-key", READ_KEY,
                                   "--chat", "c", "--text", "t", "--kind", "loud")
    assert "--read-key" in alice.fails("notify", "--space-metadata-key", METADATA_KEY, "--read-key", "abcd",
                                       "--chat", "c", "--text", "t")
    assert "--mode" in alice.fails("subscribe", "--space-metadata-key", METADATA_KEY, "--mode", "loud")
    code, _, err = run_cli(pushnode_bin, "client", "subscriptions", "--account", alice.key_file,
                           "--node", "http://127.0.0.1:1", check=False)
    assert code == 2


# ------------------------------------------------------------------------------ reconcile

def write_state(path, spaces, token=None):
    state = {"spaces": spaces}
    if token:
        state["token"] = token
    with open(path + ".tmp", "w") as f:
        json.dump(state, f)
    os.replace(path + ".tmp", path)


def test_reconcile_once_subscribes_the_desired_set(alice, tmp_path):
    state = str(tmp_path / "state.json")
    write_state(state, [{"metadataKey": METADATA_KEY, "readKey": READ_KEY, "mode": "mentions",
                         "chats": [{"id": "c1"}, {"id": "c2", "mode": "none"}]}])
    out = alice.json("reconcile", "--state", state, "--once")
    assert (out["result"], out["count"], out["added"], out["removed"]) == ("subscribed", 1, 1, 0)
    assert held(alice) == {(SPACE_KEY, f"chats/{sha('c1')}/{alice.account_id}")}
    assert alice.json("reconcile", "--state", state, "--once")["result"] == "unchanged"


def test_reconcile_follows_the_state_file_and_logs_each_subscribe_all(alice, tmp_path, pushnode_bin):
    state = str(tmp_path / "state.json")
    write_state(state, [{"metadataKey": METADATA_KEY, "chats": [{"id": "c1"}]}])
    proc = subprocess.Popen([pushnode_bin, "client", "reconcile", "--state", state, "--poll-ms", "50",
                             "--node", alice.url, "--account", alice.key_file],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    lines = []

    def wait_for(pattern):
        for line in proc.stderr:
            lines.append(line)
            if re.search(pattern, line):
                return line
        raise AssertionError("".join(lines))

    try:
        wait_for(r"event=subscribe_all .*topics=2")
        wait_for(r"event=reconcile_pass .*trigger=start")
        assert held(alice) == {(SPACE_KEY, "chats"), (SPACE_KEY, alice.account_id)}
        write_state(state, [{"metadataKey": METADATA_KEY, "mode": "none", "chats": [{"id": "c1"}]}])
        wait_for(r"event=subscribe_all .*topics=0 .*removed=2")
        wait_for(r"event=reconcile_pass .*trigger=spaces_changed")
        assert held(alice) == set()
        # A new space whose chats cannot be enumerated is skipped: never bulk topics for it.
        write_state(state, [{"metadataKey": METADATA_KEY, "mode": "none", "chats": [{"id": "c1"}]},
                            {"metadataKey": "22" * 32, "mode": "all", "chatsUnavailable": True}])
        line = wait_for(r"event=reconcile_pass .*trigger=spaces_changed")
        assert "result=unchanged" in line and "fallbacks=1" in line
        assert held(alice) == set()
        assert not any(re.search(r"[0-9a-f]{64}|seed", l) for l in lines if "event=subscribe_all" in l)
        assert all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z event=", l) for l in lines), lines
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# ------------------------------------------------------------------------------ delivery (Web Push)

def test_a_message_reaches_a_subscribed_web_push_endpoint_and_opens(pushnode_bin, tmp_path):
    import http_ece
    from mockproviders_helper import MockProviders

    with MockProviders(tmp_path / "mock") as mock:
        config = f"tls: {{caFile: {mock.ready['caFile']}}}\nwebpush: {{allowPrivateEndpoints: true}}\n"
        n = Node(pushnode_bin, config_text=config, env={"PUSHNODE_DELIVERY_INITIAL_BACKOFF": "100ms"})
        try:
            alice = Client(pushnode_bin, n, str(tmp_path), "alice")
            bob = Client(pushnode_bin, n, str(tmp_path), "bob")
            carol = Client(pushnode_bin, n, str(tmp_path), "carol")
            devices = {}
            for client, sub_id in ((bob, "bob-1"), (carol, "carol-1")):
                key = ec.generate_private_key(ec.SECP256R1())
                auth = os.urandom(16)
                point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
                client.json("token", "set", "--device", "d", "--platform", "webpush",
                            "--token", f"{mock.https}/push/{sub_id}", "--p256dh", b64u(point), "--auth", b64u(auth))
                devices[sub_id] = (key, auth)
            # bob: everything but the muted chat "quiet"; carol: mentions only.
            bob.json("subscribe", "--space-metadata-key", METADATA_KEY, "--mode", "all",
                     "--chat", "quiet=none", "--chat", "general")
            carol.json("subscribe", "--space-metadata-key", METADATA_KEY, "--mode", "mentions")

            def received(sub_id, count):
                deadline = time.time() + 20
                while time.time() < deadline:
                    got = mock.control("GET", f"/_mock/requests?provider=webpush&token={sub_id}")["requests"]
                    if len(got) >= count:
                        return got
                    time.sleep(0.05)
                raise AssertionError(f"{sub_id}: {count} pushes expected")

            def opened(record):
                key, auth = devices[record["token"]]
                data = json.loads(http_ece.decrypt(base64.b64decode(record["body"]), private_key=key,
                                                   auth_secret=auth, version="aes128gcm"))
                _, out, _ = run_cli(pushnode_bin, "client", "open", "--key", ENC_KEY_B64, "--data", json.dumps(data))
                return json.loads(out)["payload"]

            alice.notify("--chat", "quiet", "--text", "muted")
            alice.notify("--chat", "general", "--text", "hello bob")
            [first] = received("bob-1", 1)
            assert opened(first)["newMessage"]["text"] == "hello bob"
            alice.notify("--chat", "general", "--text", "hi carol", "--mention", carol.account_id)
            [to_carol] = received("carol-1", 1)
            assert opened(to_carol)["newMessage"]["text"] == "hi carol"
            texts = [opened(r)["newMessage"]["text"] for r in received("bob-1", 2)]
            assert texts == ["hello bob", "hi carol"], "the muted chat delivered nothing"
        finally:
            n.stop()
