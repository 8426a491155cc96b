"""The any-sync door of the real `pushnode serve` against an independent client
(anysync_client.py): libp2p TLS, credentials, yamux, DRPC and every pushproto method."""
import base64
import datetime
import json
import os
import signal
import subprocess
import re
import socket
import sqlite3
import struct

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

from anysync_client import (DRPCError, HandshakeRefused, Session, decode_subscriptions, notify_request, raw_public,
                            set_token_request, sha256_hex, topics_request)
from pushnode_signatures import sign_with_library
from nodeclient import queued_deliveries
from test_node_http import Node

SPACE = ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
SPACE_PUB = raw_public(SPACE)


def topic(name, key=SPACE):
    return (raw_public(key), name, key.sign(name.encode()))


class DoorNode(Node):
    def __init__(self, binary, env=None):
        super().__init__(binary, env=dict({"PUSHNODE_ANYSYNC_LISTEN": "127.0.0.1:0"}, **(env or {})))
        line = next(l for l in self.log if "event=anysync_listening" in l)
        match = re.search(r"listen=127\.0\.0\.1:(\d+) peerId=(\S+)", line)
        self.door, self.peer_id = int(match.group(1)), match.group(2)

    def session(self, **kwargs):
        return Session(self.door, **kwargs).handshake()

    def db(self):
        return sqlite3.connect(os.path.join(self.dir.name, "data", "pushnode.sqlite"))


@pytest.fixture(scope="module")
def node(pushnode_bin):
    n = DoorNode(pushnode_bin, env={"PUSHNODE_WEBPUSH_ALLOW_PRIVATE_ENDPOINTS": "true"})
    yield n
    assert n.stop() == 0


def test_capabilities_and_keys_peer_name_the_door(node, pushnode_bin):
    status, _, caps = node.json("GET", "/v1/capabilities")
    assert status == 200 and caps["anysync"] == {"enabled": True, "peerId": node.peer_id}
    assert node.peer_id.startswith("12D3KooW") and len(node.peer_id) == 52
    env = dict(os.environ, PUSHNODE_DATA_DIR=os.path.join(node.dir.name, "data"))
    out = subprocess.run([pushnode_bin, "keys", "peer"], env=env, capture_output=True, check=True)
    assert json.loads(out.stdout) == {"peerId": node.peer_id}


def test_handshake_authenticates_both_sides_and_echoes_the_version(node):
    for version in (8, 13):
        s = node.session(version=version)
        assert s.server_peer_id == node.peer_id
        assert s.alpn == "libp2p"
        assert s.server_version == version
        assert s.open_stream() == bytes.fromhex("0303000000120100")
        s.close()


def test_versions_outside_the_range_are_refused(node):
    with pytest.raises(HandshakeRefused) as refused:
        node.session(version=99)
    assert refused.value.code == 6


def test_every_method_end_to_end(node):
    subscriber = node.session()
    sender = node.session()
    # SetToken: stored although FCM is not configured (PROTOCOL §8); device = peer id.
    assert subscriber.call("SetToken", set_token_request(1, "fcm-token-1")) == b""
    seed = subscriber.account_key.private_bytes_raw()
    _, headers = sign_with_library(seed, "GET", "/v1/tokens", nonce="anysync-nonce-000000001")
    status, _, body = node.json("GET", "/v1/tokens", headers=headers)
    assert status == 200
    assert [(r["deviceId"], r["platform"]) for r in body["registrations"]] == [(subscriber.peer_id, "android")]

    # Subscriptions: SubscribeAll replaces, Subscribe adds, Unsubscribe removes.
    assert subscriber.call("Subscriptions") == bytes.fromhex("0a00")
    assert subscriber.call("SubscribeAll", topics_request([topic("chats")])) == b""
    assert subscriber.call("Subscribe", topics_request([topic("other")])) == b""
    assert sorted(decode_subscriptions(subscriber.call("Subscriptions"))) == [(SPACE_PUB, "chats"), (SPACE_PUB, "other")]
    assert subscriber.call("Unsubscribe", topics_request([topic("other")])) == b""
    assert decode_subscriptions(subscriber.call("Subscriptions")) == [(SPACE_PUB, "chats")]
    assert subscriber.call("Subscribe", b"") == b""  # a missing topics field is an empty list

    # Spaces: the space key signs the account id.
    space_request = b"\x0a\x20" + SPACE_PUB + b"\x12\x40" + SPACE.sign(sender.account.encode())
    assert sender.call("CreateSpace", space_request) == b""
    assert sender.call("RemoveSpace", space_request) == b""

    # Notify: kind message, groupId from the request, the sender excluded. The subscriber also has a
    # Web Push registration (HTTP door), which gets one queued delivery.
    browser = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    registration = json.dumps({"deviceId": "browser", "platform": "webpush", "token": "http://127.0.0.1:9/push/1",
                               "p256dh": base64.urlsafe_b64encode(browser).decode().rstrip("="),
                               "auth": base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")}).encode()
    _, headers = sign_with_library(seed, "POST", "/v1/tokens", None, registration, nonce="anysync-nonce-000000003")
    assert node.json("POST", "/v1/tokens", headers=headers, body=registration)[0] == 200
    sealed = os.urandom(60)
    request = notify_request([topic("chats")], sha256_hex(b"k"), sealed, sender.account_key.sign(sealed), "group-1")
    assert sender.call("Notify", request) == b""
    with node.db() as db:
        kinds = dict(db.execute("SELECT id, kind || ' ' || group_id FROM notifications").fetchall())
        rows = [(kinds[notification], provider) for notification, _, provider, _ in queued_deliveries(db)]
    assert rows == [("message group-1", "webpush")]

    # NotifySilent: own-identity topics only.
    own = topic(subscriber.account)
    silent = notify_request([own], sha256_hex(b"k"), sealed, subscriber.account_key.sign(sealed))
    assert subscriber.call("NotifySilent", silent) == b""

    # RevokeToken removes this (account, peer)'s registrations.
    assert subscriber.call("RevokeToken") == b""
    _, headers = sign_with_library(seed, "GET", "/v1/tokens", nonce="anysync-nonce-000000002")
    remaining = node.json("GET", "/v1/tokens", headers=headers)[2]["registrations"]
    assert [r["deviceId"] for r in remaining] == ["browser"]
    subscriber.close()
    sender.close()


def test_errors_carry_anysync_codes(node):
    s = node.session()
    other = ed25519.Ed25519PrivateKey.generate()
    bad_topic = (SPACE_PUB, "chats", other.sign(b"chats"))
    with pytest.raises(DRPCError) as error:
        s.call("SubscribeAll", topics_request([bad_topic]))
    assert (error.value.code, error.value.message) == (1202, "invalid topic signature")
    sealed = os.urandom(60)
    with pytest.raises(DRPCError) as error:
        s.call("Notify", notify_request([topic("chats")], sha256_hex(b"k"), sealed, other.sign(sealed)))
    assert error.value.code == 1201
    with pytest.raises(DRPCError) as error:
        s.call("SetToken", set_token_request(7, "x"))
    assert (error.value.code, error.value.message) == (1200, "unknown platform 7")
    with pytest.raises(DRPCError) as error:
        s.call("Nope")
    assert error.value.code == 0 and "unknown rpc" in error.value.message
    # The stream is still usable after errors.
    assert s.call("Subscriptions") == bytes.fromhex("0a00")
    s.close()


def error_frame(sid, code, text):
    """A DRPC Error frame (Spec/anysync-wire.md §8.5): kind 3 with the done bit, stream id, message
    id 1, then `code:u64 BE ‖ text`."""
    data = struct.pack(">Q", code) + text.encode()
    return bytes([3 << 1 | 1]) + bytes([sid, 1, len(data)]) + data


def test_a_refusal_of_the_request_is_1200_with_its_text_on_the_wire(node):
    # PROTOCOL §8: `Unexpected` (1200) with a text naming the rule or limit, for every refusal without
    # a code of its own (Spec/anysync.md "Errors").
    s = node.session()
    with pytest.raises(DRPCError) as error:
        s.call("Notify", topics_request([topic("chats")]))  # a NotifyRequest without its message
    assert error.value.frame == error_frame(1, 1200, "push: message is required")
    short_key = (SPACE_PUB[:31], "chats", SPACE.sign(b"chats"))
    with pytest.raises(DRPCError) as error:
        s.call("Subscribe", topics_request([short_key]))
    assert error.value.frame == error_frame(2, 1200, "expect ed25519 public key data size to be 32")
    sealed = os.urandom(60)
    with pytest.raises(DRPCError) as error:
        s.call("Notify", notify_request([topic("chats")], sha256_hex(b"k"), sealed, os.urandom(64)))
    assert error.value.frame == error_frame(3, 1201, "invalid signature")  # the contract's codes stay
    assert s.call("Subscriptions") == bytes.fromhex("0a00")
    s.close()


def test_a_malformed_frame_closes_only_that_session(node):
    good = node.session()
    good.open_stream()
    bad = node.session()
    bad.sock.sendall(b"\x07" + b"\x00" * 11)  # yamux version 7
    kind, flags, sid, code, _ = bad.read_yamux()
    assert (kind, code) == (3, 1)  # GoAway(protocol error)
    assert bad.sock.recv(10) == b""
    assert good.call("Subscriptions") == bytes.fromhex("0a00")
    good.close()


def test_a_drpc_varint_that_never_ends_resets_its_stream_at_once(node):
    """32 bytes of 0xff after the DRPC kind byte: a varint that never ends. Go's drpc reader fails
    it at once; the door resets that stream within a second and the session goes on."""
    s = node.session()
    s.open_stream(1)
    s.sock.settimeout(1.0)
    hostile = b"\x03" + b"\xff" * 32
    s.send_yamux(0, 0, 1, len(hostile), hostile)
    while True:
        kind, flags, sid, _, _ = s.read_yamux()  # a socket timeout here fails the test
        if sid == 1 and flags & 8:
            break
    s.sock.settimeout(10)
    s.stream = None
    s.open_stream(3)
    assert s.call("Subscriptions") == bytes.fromhex("0a00")
    s.close()


def test_pings_are_answered_and_shutdown_sends_goaway(pushnode_bin):
    n = DoorNode(pushnode_bin)
    try:
        s = n.session()
        s.send_yamux(2, 1, 0, 41)
        assert s.read_yamux()[:4] == (2, 2, 0, 41)
        n.proc.send_signal(signal.SIGTERM)
        assert s.read_yamux()[0] == 3
        assert n.proc.wait(timeout=30) == 0
    finally:
        assert n.stop() == 0


def plain_certificate(peer_key):
    """A valid self-signed certificate without the libp2p extension."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "plain")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
    return cert, key


def test_a_certificate_without_the_libp2p_extension_is_refused(node):
    with pytest.raises((ConnectionError, OSError)):
        Session(node.door, certificate=plain_certificate).handshake()
    assert node.session().call("Subscriptions") == bytes.fromhex("0a00")


def test_credentials_signed_for_another_peer_are_refused(node):
    with pytest.raises(HandshakeRefused) as refused:
        Session(node.door, sign_for="12D3KooWHKcqHwfQrEbapSdHJ2GZEB6TACDSWnn9mekJtgcCUHNi").handshake()
    assert refused.value.code == 2


def test_rate_limits_answer_700(pushnode_bin):
    n = DoorNode(pushnode_bin, env={"PUSHNODE_RATE_LIMITS_REGISTRATION_BURST": "2",
                                    "PUSHNODE_RATE_LIMITS_REGISTRATION_PER_MINUTE": "0.001"})
    try:
        s = n.session()
        assert s.call("Subscriptions") == bytes.fromhex("0a00")
        assert s.call("Subscriptions") == bytes.fromhex("0a00")
        with pytest.raises(DRPCError) as error:
            s.call("Subscriptions")
        assert (error.value.code, error.value.message) == (700, "rate limit exceeded")
    finally:
        assert n.stop() == 0


def test_a_connection_storm_leaves_the_http_door_responsive(node):
    sockets = [socket.create_connection(("127.0.0.1", node.door)) for _ in range(40)]
    for s in sockets[::2]:
        s.sendall(os.urandom(64))  # garbage instead of a ClientHello
    assert node.json("GET", "/healthz")[0] == 200
    assert node.session().call("Subscriptions") == bytes.fromhex("0a00")
    for s in sockets:
        s.close()


def test_a_notify_through_the_door_reaches_a_web_push_mock(pushnode_bin, tmp_path):
    from mockproviders_helper import MockProviders
    from test_delivery_e2e import Account, Subscriber, node_env, received

    with MockProviders(tmp_path / "mock") as mock:
        n = DoorNode(pushnode_bin, env=node_env(mock))
        try:
            subscriber, sender = n.session(), n.session()
            browser = Subscriber(mock, "anysync-browser")
            Account(n, seed=subscriber.account_key.private_bytes_raw()).register(
                "webpush", browser.endpoint, device="browser", p256dh=browser.p256dh, auth=browser.auth)
            assert subscriber.call("SubscribeAll", topics_request([topic("chats")])) == b""
            sealed = os.urandom(64)
            request = notify_request([topic("chats")], sha256_hex(b"k"), sealed, sender.account_key.sign(sealed), "grp-9")
            assert sender.call("Notify", request) == b""
            delivered = received(mock, "webpush", browser.id)[0]
            data = json.loads(browser.decrypt(base64.b64decode(delivered["body"])))
            assert data["x-any-type"] == "normal" and data["x-any-group-id"] == "grp-9"
            assert base64.b64decode(data["x-any-payload"]) == sealed
        finally:
            assert n.stop() == 0
