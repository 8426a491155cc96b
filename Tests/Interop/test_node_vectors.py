"""Independent checks of the node's identifier vectors (Spec/vectors/registration-id.json and
notify-idempotency-key.json): registrationId of PROTOCOL §3 and the canonical idempotency key of a
Notify without a message. The Swift tests check the Swift code against the same files."""
import hashlib
import json
import os

from conftest import VECTORS

B58 = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58decode(text):
    n = 0
    for c in text.encode():
        n = n * 58 + B58.index(c)
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    zeros = len(text) - len(text.lstrip("1"))
    return b"\0" * zeros + body


def registration_id(platform, app_id, environment, token):
    data = b"\0".join(s.encode() for s in (platform, app_id, environment, token))
    return hashlib.sha256(data).digest()[:16].hex()


def idempotency_key(topics, group_id):
    pairs = sorted({(t["spaceKey"].encode(), t["topic"].encode()) for t in topics})
    form = b"pushnode-notify-v1\0" + b"".join(k + b"\0" + t + b"\0" for k, t in pairs) + b"\x01"
    if group_id is not None:
        form += group_id.encode()
    return hashlib.sha256(form).hexdigest()


def load(name):
    with open(os.path.join(VECTORS, name)) as f:
        return json.load(f)


def test_registration_ids():
    cases = load("registration-id.json")["cases"]
    assert len(cases) >= 4
    for case in cases:
        assert registration_id(case["platform"], case["appId"], case["environment"], case["token"]) == case["registrationId"]


def test_notify_idempotency_keys():
    cases = load("notify-idempotency-key.json")["cases"]
    assert len(cases) >= 4
    for case in cases:
        for topic in case["topics"]:
            assert len(b58decode(topic["spaceKey"])) == 32
        assert idempotency_key(case["topics"], case.get("groupId")) == case["key"]
