"""Independent Python helpers for PROTOCOL §2 request signatures, built on the
`http-message-signatures` library (RFC 9421) and PyNaCl/cryptography (Ed25519).

Used by test_http_signatures.py and by make_signature_vectors.py, which writes
Spec/vectors/http-signature-profile.json for the Swift verifier tests.
"""
import base64
import datetime
import hashlib

from cryptography.hazmat.primitives.asymmetric import ed25519
from cryptography.hazmat.primitives import serialization
from http_message_signatures import HTTPMessageSigner, HTTPMessageVerifier, HTTPSignatureKeyResolver, algorithms
from http_message_signatures.structures import CaseInsensitiveDict

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def crc16_xmodem(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def account_id(public_key: bytes) -> str:
    body = b"\x5b" + public_key
    return base58(body + crc16_xmodem(body).to_bytes(2, "little"))


def key_from_seed(seed: bytes):
    private = ed25519.Ed25519PrivateKey.from_private_bytes(seed)
    public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return private, public, account_id(public)


class Message:
    """The request interface the library reads: method, absolute url, headers."""

    def __init__(self, method, path, query=None, headers=None, origin="http://node.example"):
        self.method = method
        self.url = origin + path + (("?" + query) if query else "")
        self.headers = CaseInsensitiveDict(headers or {})


def public_key_from_account_id(text: str) -> bytes:
    n = 0
    for ch in text:
        n = n * 58 + B58.index(ch)
    raw = n.to_bytes(35, "big")
    assert raw[0] == 0x5B and crc16_xmodem(raw[:33]).to_bytes(2, "little") == raw[33:], "bad account id"
    return raw[1:33]


class Keys(HTTPSignatureKeyResolver):
    """Private keys by account id (for signing); public keys come from the account id itself."""

    def __init__(self, private_keys=None):
        self.private_keys = private_keys or {}

    def resolve_public_key(self, key_id):
        return ed25519.Ed25519PublicKey.from_public_bytes(public_key_from_account_id(key_id))

    def resolve_private_key(self, key_id):
        return self.private_keys[key_id]


def profile_components(query, body):
    names = ["@method", "@path"]
    if query:
        names.append("@query")
    if body:
        names.append("content-digest")
    return names


def sign_with_library(seed: bytes, method, path, query=None, body=b"", created=None, nonce="python-nonce-000000000001"):
    """Signs like a PROTOCOL §2 client, with the library doing the RFC 9421 work."""
    private, _, keyid = key_from_seed(seed)
    message = Message(method, path, query)
    created = created if created is not None else int(datetime.datetime.now(datetime.timezone.utc).timestamp())
    signer = HTTPMessageSigner(signature_algorithm=algorithms.ED25519, key_resolver=Keys({keyid: private}))
    names = [n for n in profile_components(query, body) if n != "content-digest"]
    signer.sign(message, key_id=keyid, label="push", nonce=nonce, covered_component_ids=names,
                created=datetime.datetime.fromtimestamp(created, datetime.timezone.utc),
                body=body if body else None)
    return keyid, dict(message.headers)


def verify_with_library(method, path, query, body, headers):
    """Verifies with the library (no age limit); returns its VerifyResult, raises when invalid."""
    message = Message(method, path, query, headers)
    verifier = HTTPMessageVerifier(signature_algorithm=algorithms.ED25519, key_resolver=Keys())
    results = verifier.verify(message, max_age=None, body=body if body else None)
    assert len(results) == 1
    return results[0]


def signature_base_by_hand(method, path, query, content_digest, signature_input_value):
    """The RFC 9421 §2.5 base for the profile, written out directly (no library)."""
    lines = [f'"@method": {method}', f'"@path": {path}']
    if query:
        lines.append(f'"@query": ?{query}')
    if content_digest is not None:
        lines.append(f'"content-digest": {content_digest}')
    lines.append(f'"@signature-params": {signature_input_value}')
    return "\n".join(lines).encode()


def sha256_digest_header(body: bytes) -> str:
    return "sha-256=:" + base64.b64encode(hashlib.sha256(body).digest()).decode() + ":"
