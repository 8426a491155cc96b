"""Senders that are not any, end to end through the real binary and the mock providers:
the independent Python sender in examples/python (it imports nothing of the node's Swift code nor
of these tests' helpers) notifies a real `pushnode serve`, and what FCM receives is opened by the
example's receiver; `pushnode client space new` + `client notify --payload-json` deliver a non-any
payload that the Python receiver opens to the same bytes; clears, replacing pushes and wakes are
accepted and counted (`queued`)."""
import base64
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli
from mockproviders_helper import MockProviders
from pushnode_node import Node, wait_for

EXAMPLE = os.path.join(ROOT, "examples", "python")
sys.path.insert(0, EXAMPLE)
import pushsender  # noqa: E402  (the example, as a library)
from pushsender import Account, Space, open_push  # noqa: E402

CHAT_MESSAGE = {"contract": "CHAT_MESSAGE", "v": "1", "type": "CHAT_NEW_MESSAGE", "messageId": "m-81",
                "conversationId": "c-12", "conversationType": "GROUP", "senderName": "Ali",
                "preview": "📷 Photo · at the beach", "sentAt": "2026-10-28T09:14:03Z"}


@pytest.fixture(scope="module")
def mock(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("mock")) as m:
        yield m


@pytest.fixture
def node(pushnode_bin, mock):
    r = mock.ready
    n = Node(pushnode_bin, env={"PUSHNODE_FCM_CREDENTIALS_PATH": r["serviceAccountFile"],
                                "PUSHNODE_FCM_BASE_URL": mock.https, "PUSHNODE_TLS_CA_FILE": r["caFile"],
                                "PUSHNODE_SERVER_SHUTDOWN_TIMEOUT": "2s"})
    yield n
    n.stop()


def url(node):
    return f"http://127.0.0.1:{node.port}"


def fcm_data(mock, token, count=1):
    """The `message.data` of the first `count` FCM requests for `token`."""
    got = wait_for(lambda: (lambda r: r if len(r) >= count else None)(mock.requests("fcm", token)),
                   message=f"{count} FCM request(s) for {token}")
    return [json.loads(base64.b64decode(r["body"]))["message"] for r in got[:count]]


def device(node, space, token, topics):
    """A phone: its own account registers an FCM token and subscribes to `topics` (example code)."""
    phone = pushsender.Node(url(node), Account.generate())
    phone.register_token("phone", "android", token)
    phone.subscribe(space, topics)
    return phone


def test_the_python_example_notifies_and_its_receiver_opens_what_fcm_got(node, mock):
    space, server = Space.generate(), Account.generate()
    sender = pushsender.Node(url(node), server)
    assert sender.register_space(space) == {}
    device(node, space, "android-py-1", ["user/mary"])
    payload = json.dumps(CHAT_MESSAGE, ensure_ascii=False).encode()

    answer = sender.notify(space, ["user/mary"], payload, group_id="c-12")
    assert (answer["duplicate"], answer["queued"]) == (False, 1)
    [message] = fcm_data(mock, "android-py-1")
    data = message["data"]
    assert set(data) == {"x-any-type", "x-any-id", "x-any-group-id", "x-any-payload", "x-any-signature", "x-any-key-id"}
    assert (data["x-any-type"], data["x-any-id"], data["x-any-group-id"], data["x-any-key-id"]) == \
        ("normal", answer["id"], "c-12", space.key_id)
    assert message["android"]["collapse_key"] == "c-12" and "notification" not in message
    assert open_push(data, {space.key_id: space.payload_key}, server.id) == payload
    with pytest.raises(pushsender.OpenError) as refused:
        open_push(data, {space.key_id: space.payload_key}, Account.generate().id)
    assert refused.value.reason == "bad_signature"

    # A content-free wake from the example: only the three keys, nothing to open.
    answer = sender.notify(space, ["user/mary"], None, group_id="c-12")
    [_, wake] = fcm_data(mock, "android-py-1", 2)
    assert wake["data"] == {"x-any-type": "normal", "x-any-id": answer["id"], "x-any-group-id": "c-12"}
    assert open_push(wake["data"], {space.key_id: space.payload_key}, server.id) is None

    # The node refuses a bad topic signature from the example with its stable code.
    forged = space.sign_topic("user/mary")
    forged["signature"] = Space.generate().sign_topic("user/mary")["signature"]
    with pytest.raises(pushsender.NodeError) as error:
        sender.call("POST", "/v1/notify", {"topics": [forged], "message": sender.sealed_message(space, b"{}")})
    assert (error.value.status, error.value.code, error.value.field) == (400, "topic.signature_invalid", "topics[0].signature")


def test_a_cli_space_and_payload_json_reach_the_python_receiver_byte_for_byte(node, mock, pushnode_bin, tmp_path):
    space_file, server_key = str(tmp_path / "space.json"), str(tmp_path / "server.key")
    _, out, _ = run_cli(pushnode_bin, "client", "space", "new", "--out", space_file)
    made = json.loads(out)
    assert os.stat(space_file).st_mode & 0o777 == 0o600
    space = Space.load(space_file)  # the example reads the CLI's file
    assert (made["spaceKey"], made["keyId"]) == (space.space_key, space.key_id)
    assert "pushKeySeed" not in out.decode() and space.push_key_seed.hex() not in out.decode()
    server = json.loads(run_cli(pushnode_bin, "client", "account", "new", "--out", server_key)[1])["accountId"]

    phone_key = str(tmp_path / "phone.key")
    run_cli(pushnode_bin, "client", "account", "new", "--out", phone_key)
    client = ["--node", url(node), "--account", phone_key]
    run_cli(pushnode_bin, "client", "token", "set", *client, "--device", "phone", "--platform", "android",
            "--token", "android-cli-1")
    subscribed = json.loads(run_cli(pushnode_bin, "client", "subscribe", *client, "--space", space_file,
                                    "--topic", "user/mary")[1])
    assert (subscribed["spaceKey"], subscribed["count"]) == (space.space_key, 1)

    text = json.dumps(CHAT_MESSAGE, ensure_ascii=False, separators=(", ", ": "))  # the exact bytes must survive
    _, out, _ = run_cli(pushnode_bin, "client", "notify", "--node", url(node), "--account", server_key,
                        "--space", space_file, "--topic", "user/mary", "--payload-json", text, "--group-id", "c-12")
    [request] = json.loads(out)["requests"]
    assert (request["path"], request["status"], request["queued"]) == ("/v1/notify", 200, 1)
    assert json.loads(request["body"])["kind"] == "message"
    [message] = fcm_data(mock, "android-cli-1")
    data = message["data"]
    assert data == request["dataKeys"]
    assert open_push(data, {space.key_id: space.payload_key}, server) == text.encode()

    # The example's command line and the node's CLI open it the same way.
    opened = subprocess.run([sys.executable, "-m", "pushsender", "open", "--space", space_file, "--sender", server,
                             "--data", json.dumps(data)], cwd=EXAMPLE, capture_output=True, check=True)
    assert json.loads(opened.stdout)["payload"] == CHAT_MESSAGE
    _, out, _ = run_cli(pushnode_bin, "client", "open", "--space", space_file, "--sender", server, "--data", json.dumps(data))
    opened = json.loads(out)
    assert (opened["opened"], base64.b64decode(opened["plaintext"]), opened["payload"]) == (True, text.encode(), CHAT_MESSAGE)
    code, out, err = run_cli(pushnode_bin, "client", "open", "--space", space_file, "--sender", Account.generate().id,
                             "--data", json.dumps(data), check=False)
    assert (code, out) == (2, b"") and "bad_signature" in err

    # Bytes that are not JSON travel as they are too.
    raw = bytes(range(256)) + "é".encode()
    (tmp_path / "payload.bin").write_bytes(raw)
    _, out, _ = run_cli(pushnode_bin, "client", "notify", "--node", url(node), "--account", server_key,
                        "--space", space_file, "--topic", "user/mary", "--payload-file", str(tmp_path / "payload.bin"))
    [request] = json.loads(out)["requests"]
    [_, binary] = fcm_data(mock, "android-cli-1", 2)
    assert binary["data"]["x-any-id"] == request["id"]
    assert open_push(binary["data"], {space.key_id: space.payload_key}, server) == raw
    _, out, _ = run_cli(pushnode_bin, "client", "open", "--space", space_file, "--sender", server,
                        "--data", json.dumps(binary["data"]))
    opened = json.loads(out)
    assert base64.b64decode(opened["plaintext"]) == raw and "payload" not in opened


def test_a_clear_a_replacing_read_and_a_wake_are_accepted_and_counted(node, mock, pushnode_bin, tmp_path):
    space_file, server_key = str(tmp_path / "space.json"), str(tmp_path / "server.key")
    run_cli(pushnode_bin, "client", "space", "new", "--out", space_file)
    server = json.loads(run_cli(pushnode_bin, "client", "account", "new", "--out", server_key)[1])["accountId"]
    space = Space.load(space_file)
    device(node, space, "android-clear-1", ["user/mary"])
    notify = ["client", "notify", "--node", url(node), "--account", server_key, "--space", space_file]

    def sent(*args):
        [request] = json.loads(run_cli(pushnode_bin, *notify, *args)[1])["requests"]
        return request, json.loads(request["body"])

    ended = json.dumps({"contract": "CALL_ENDED", "v": "1", "callId": "k-55", "outcome": "ANSWERED_ELSEWHERE"})
    request, body = sent("--topic", "user/mary", "--payload-json", ended, "--kind", "clear", "--group-id", "call/k-55")
    assert (request["status"], request["queued"], request["dataKeys"]["x-any-type"]) == (200, 1, "clear")
    assert (body["kind"], body["groupId"], "replaces" in body) == ("clear", "call/k-55", False)
    [clear] = fcm_data(mock, "android-clear-1")
    assert clear["data"]["x-any-type"] == "clear" and clear["android"]["priority"] == "HIGH"
    assert open_push(clear["data"], {space.key_id: space.payload_key}, server) == ended.encode()

    request, body = sent("--topic", "user/mary", "--wake", "--kind", "silent", "--group-id", "read/c-12", "--ttl",
                         "86400", "--replaces")
    assert (request["queued"], body["replaces"], body["ttl"], "message" in body) == (1, True, 86400, False)

    # READ_ELSEWHERE the any way: the reader's own devices, replacing the older read of the chat.
    request, body = sent("--own-devices", "--wake", "--group-id", "c-12", "--replaces", "--device", "d1")
    assert (request["path"], request["status"], request["queued"]) == ("/v1/notify/silent", 200, 0)
    assert ([t["topic"] for t in body["topics"]], body["deviceId"], body["replaces"]) == ([server], "d1", True)

    # Refused before the node is asked: a clear names the group it replaces.
    code, out, err = run_cli(pushnode_bin, *notify, "--topic", "user/mary", "--wake", "--kind", "clear", check=False)
    assert (code, out) == (2, b"") and "groupId is required" in err


@pytest.mark.parametrize("args, message", [
    (["--space", "s.json", "--space-metadata-key", "11" * 32, "--read-key", "22" * 32, "--wake", "--topic", "t"],
     "--space and --space-metadata-key exclude each other"),
    (["--space-metadata-key", "11" * 32, "--wake", "--topic", "t"], "--space-metadata-key needs --read-key"),
    (["--space", "s.json", "--topic", "t"], "give one of: --chat ID | --payload-file F | --payload-json JSON | --wake"),
    (["--space", "s.json", "--wake", "--payload-json", "{}", "--topic", "t"], "--payload-json and --wake exclude each other"),
    (["--space", "s.json", "--chat", "c", "--text", "t", "--topic", "t"],
     "--topic goes with --payload-file or --payload-json or --wake, not with --chat"),
    (["--space", "s.json", "--wake", "--text", "t", "--topic", "t"], "--text goes with --chat, not with --wake"),
])
def test_a_space_and_a_payload_are_each_given_exactly_once(pushnode_bin, tmp_path, args, message):
    key = str(tmp_path / "a.key")
    run_cli(pushnode_bin, "client", "account", "new", "--out", key)
    code, out, err = run_cli(pushnode_bin, "client", "notify", "--account", key, "--node", "http://127.0.0.1:1", *args,
                             check=False)
    assert (code, out) == (2, b"") and message in err, err


def test_the_python_example_reproduces_the_vectors():
    proc = subprocess.run([sys.executable, "-m", "pushsender", "selfcheck"], cwd=EXAMPLE, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "all 22 vector cases reproduced" in proc.stdout


def test_space_derive_writes_the_any_space_every_space_command_reads(pushnode_bin, tmp_path):
    """The any-compat vector's ACL material, as a space file: the same keys the example derives."""
    vector = json.load(open(os.path.join(ROOT, "Spec", "vectors", "any-compat.json")))["cases"][0]
    path = str(tmp_path / "any.json")
    _, out, _ = run_cli(pushnode_bin, "client", "space", "derive", "--space-metadata-key", vector["metadataKeyRaw64"],
                        "--read-key", vector["readKey"], "--out", path)
    assert json.loads(out) == {"spaceKey": vector["spaceKey"], "keyId": vector["encKeyId"], "path": path}
    space = Space.load(path)
    derived = Space.derive(bytes.fromhex(vector["metadataKeySeed"]), bytes.fromhex(vector["readKey"]))
    assert (space.push_key_seed, space.payload_key) == (derived.push_key_seed, derived.payload_key)
    assert (space.push_key_seed.hex(), space.payload_key.hex()) == (vector["spacePushSeed"], vector["encKey"])
    code, out, err = run_cli(pushnode_bin, "client", "space", "derive", "--space-metadata-key", vector["metadataKeySeed"],
                             "--read-key", vector["readKey"], "--out", path, check=False)
    assert (code, out) == (2, b"") and "exists" in err


def test_reconcile_takes_a_space_file_in_the_state(node, pushnode_bin, tmp_path):
    space_file, key = str(tmp_path / "space.json"), str(tmp_path / "phone.key")
    run_cli(pushnode_bin, "client", "space", "new", "--out", space_file)
    me = json.loads(run_cli(pushnode_bin, "client", "account", "new", "--out", key)[1])["accountId"]
    state = str(tmp_path / "state.json")
    with open(state, "w") as f:
        json.dump({"spaces": [{"space": space_file, "mode": "mentions"}]}, f)
    client = ["--node", url(node), "--account", key]
    out = json.loads(run_cli(pushnode_bin, "client", "reconcile", *client, "--state", state, "--once")[1])
    assert (out["result"], out["count"]) == ("subscribed", 1)
    held = json.loads(run_cli(pushnode_bin, "client", "subscriptions", *client)[1])["topics"]
    assert held == [{"spaceKey": Space.load(space_file).space_key, "topic": me}]
    with open(state, "w") as f:
        json.dump({"spaces": [{"space": space_file, "metadataKey": "11" * 32}]}, f)
    code, _, err = run_cli(pushnode_bin, "client", "reconcile", *client, "--state", state, "--once", check=False)
    assert code == 2 and "needs exactly one of metadataKey and space" in err
