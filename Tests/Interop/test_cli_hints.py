"""Client commands print a `hint:` line with the fix when the node refuses with a code whose fix
is known (pushnode/ErrorHints.swift): an unroutable Web Push endpoint, a disabled platform, a
failing storage; and a VoIP registration or test push is told it receives calls only."""
import http.server
import json
import os
import subprocess
import threading

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import run_cli
from pushnode_node import Node


def hints(err):
    return [line[len("hint: "):] for line in err.splitlines() if line.startswith("hint: ")]


@pytest.fixture
def account(pushnode_bin, tmp_path):
    path = str(tmp_path / "a.key")
    run_cli(pushnode_bin, "client", "account", "new", "--out", path)
    return path


@pytest.fixture
def apns_config(tmp_path):
    """APNs credentials that parse (the node never calls APNs in these tests)."""
    key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    (tmp_path / "AuthKey.p8").write_bytes(key)
    return {"PUSHNODE_APNS_KEY_PATH": str(tmp_path / "AuthKey.p8"), "PUSHNODE_APNS_KEY_ID": "ABC123DEFG",
            "PUSHNODE_APNS_TEAM_ID": "TEAM123456", "PUSHNODE_APNS_TOPIC": "org.example.app"}


def token_set(binary, node, account, *args, device="d1"):
    return run_cli(binary, "client", "token", "set", "--account", account, "--node", f"http://127.0.0.1:{node.port}",
                   "--device", device, *args, check=False)


def subscriber_keys():
    """A browser's p256dh and auth (base64url)."""
    import base64
    public = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    encode = lambda data: base64.urlsafe_b64encode(data).decode().rstrip("=")
    return encode(public), encode(os.urandom(16))


def test_refusals_with_a_known_fix_print_it(pushnode_bin, account):
    node = Node(pushnode_bin)
    try:
        p256dh, auth = subscriber_keys()
        rc, out, err = token_set(pushnode_bin, node, account, "--platform", "webpush",
                                 "--token", "https://127.0.0.1/push/abc", "--p256dh", p256dh, "--auth", auth)
        assert (rc, out) == (2, b""), err
        assert "token.endpoint_not_routable" in err
        assert len(hints(err)) == 1 and "webpush.allowPrivateEndpoints" in hints(err)[0], err

        rc, out, err = token_set(pushnode_bin, node, account, "--platform", "android", "--token", "fcm-token-1")
        assert (rc, out) == (2, b"") and "platform.disabled" in err, err
        assert hints(err) == ["FCM is not configured on the node: set fcm.credentialsPath (a service-account JSON) in its config"]

        rc, _, err = token_set(pushnode_bin, node, account, "--platform", "apns_voip", "--token", "ab" * 32)
        assert rc == 2 and "apns.keyPath, apns.keyId, apns.teamId and apns.topic" in hints(err)[0], err

        # A refusal without a known fix prints no hint.
        rc, _, err = token_set(pushnode_bin, node, account, "--platform", "webpush", "--token", "ftp://x",
                               "--p256dh", p256dh, "--auth", auth)
        assert rc == 2 and "request.invalid_field" in err and hints(err) == [], err
    finally:
        node.stop()


def test_a_voip_registration_and_a_voip_test_push_without_kind_call_are_told_so(pushnode_bin, account, apns_config, tmp_path):
    node = Node(pushnode_bin, env=apns_config)
    try:
        rc, out, err = token_set(pushnode_bin, node, account, "--platform", "apns_voip", "--token", "ab" * 32)
        assert rc == 0 and "registrationId" in json.loads(out), err
        assert len(hints(err)) == 1 and "receives only calls: send with --kind call" in hints(err)[0]
        rc, _, err = token_set(pushnode_bin, node, account, "--platform", "apns", "--token", "cd" * 32, device="d2")
        assert rc == 0 and hints(err) == [], err
    finally:
        node.stop()
    env = dict(os.environ, **apns_config, PUSHNODE_DATA_DIR=str(tmp_path / "send-data"))
    proc = subprocess.run([pushnode_bin, "send", "--platform", "apns_voip", "--token", "ab" * 32], env=env,
                          capture_output=True, timeout=60)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and json.loads(proc.stdout)["reason"] == "gateway.unsupported_kind", err
    assert len(hints(err)) == 1 and "--kind call" in hints(err)[0]


class StorageDown(http.server.BaseHTTPRequestHandler):
    """A node whose storage fails: every route answers PROTOCOL §3.2's 503 storage.unavailable."""

    def answer(self):
        length = int(self.headers.get("content-length") or 0)
        self.rfile.read(length)
        body = json.dumps({"error": {"code": "storage.unavailable", "message": "storage unavailable"}}).encode()
        self.send_response(503)
        self.send_header("content-type", "application/json")
        self.send_header("retry-after", "2")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = answer

    def log_message(self, *args):
        pass


def test_a_storage_fault_says_the_node_s_storage_is_failing_and_to_retry(pushnode_bin, account):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StorageDown)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        for args in (["token", "list"],
                     ["notify", "--space-metadata-key", "11" * 32, "--read-key", "22" * 32, "--chat", "c", "--text", "t"]):
            rc, out, err = run_cli(pushnode_bin, "client", *args, "--account", account, "--node", url, check=False)
            assert (rc, out) == (2, b"") and "storage.unavailable" in err, (args, err)
            assert len(hints(err)) == 1 and "storage is failing" in hints(err)[0] and "retry" in hints(err)[0], err
    finally:
        server.shutdown()
