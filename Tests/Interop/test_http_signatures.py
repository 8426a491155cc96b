"""PROTOCOL §2 request signatures checked against independent implementations:
the Python `http-message-signatures` library (RFC 9421, its ed25519 algorithm and RFC 9530
Content-Digest) and a by-hand signature base verified with PyNaCl."""
import base64
import datetime
import json
import os
import tempfile

import pytest
from nacl.signing import VerifyKey

from conftest import VECTORS, run_cli, cli_json
from pushnode_signatures import (
    Message, key_from_seed, public_key_from_account_id, profile_components, sha256_digest_header,
    sign_with_library, signature_base_by_hand, verify_with_library,
)
import make_signature_vectors

from cryptography.hazmat.primitives import serialization
from http_message_signatures import HTTPMessageSigner, HTTPMessageVerifier, HTTPSignatureKeyResolver, algorithms

SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")

CASES = [
    ("GET", "/v1/tokens", None, b""),
    ("GET", "/v1/subscriptions", "after=abc&limit=5", b""),
    ("POST", "/v1/notify", None, b'{"topics":[{"spaceKey":"k","topic":"chats","signature":"s"}]}'),
    ("POST", "/v1/tokens/revoke", "dry=1", b'{"deviceId":"d1"}'),
]


def sign_with_pushnode(binary, method, path, query, body, created=None):
    args = ["client", "sign-request", "--seed", SEED.hex(), "--method", method, "--path", path]
    if query:
        args += ["--query", query]
    if created is not None:
        args += ["--created", str(created)]
    with tempfile.NamedTemporaryFile() as f:
        if body:
            f.write(body)
            f.flush()
            args += ["--body-file", f.name]
        return cli_json(binary, *args)


def verify_with_pushnode(binary, method, path, query, body, headers):
    args = ["client", "verify-request", "--method", method, "--path", path,
            "--signature-input", headers["Signature-Input"], "--signature", headers["Signature"]]
    if query:
        args += ["--query", query]
    if "Content-Digest" in headers:
        args += ["--content-digest", headers["Content-Digest"]]
    with tempfile.NamedTemporaryFile() as f:
        if body:
            f.write(body)
            f.flush()
            args += ["--body-file", f.name]
        rc, out, err = run_cli(binary, *args, check=False)
    assert rc in (0, 1), err
    return rc, json.loads(out)


class _RFCKey(HTTPSignatureKeyResolver):
    def __init__(self, vector):
        self.vector = vector

    def resolve_public_key(self, key_id):
        assert key_id == "test-key-ed25519"
        return serialization.load_pem_public_key(self.vector["key"]["publicKeyPem"].encode())

    def resolve_private_key(self, key_id):
        return serialization.load_pem_private_key(self.vector["key"]["privateKeyPem"].encode(), None)


def _rfc_message(vector):
    request = vector["request"]
    return Message(request["method"], request["path"], request["query"], dict(request["headers"]),
                   origin="https://example.com")


def test_rfc9421_vector_file_matches_the_library():
    """Spec/vectors/rfc9421-ed25519.json: the library rebuilds the same base and accepts the signature."""
    with open(os.path.join(VECTORS, "rfc9421-ed25519.json")) as f:
        vector = json.load(f)
    names = [c["name"] for c in vector["components"]]
    prepared = HTTPMessageSigner(signature_algorithm=algorithms.ED25519, key_resolver=_RFCKey(vector)).prepare(
        _rfc_message(vector), key_id="test-key-ed25519", include_alg=False, covered_component_ids=names,
        use_existing_digest=True,
        created=datetime.datetime.fromtimestamp(1618884473, datetime.timezone.utc))
    assert prepared.signature_base.decode() == vector["signatureBase"]

    message = _rfc_message(vector)
    message.headers["Signature-Input"] = vector["signatureInput"]
    message.headers["Signature"] = vector["signature"]
    verifier = HTTPMessageVerifier(signature_algorithm=algorithms.ED25519, key_resolver=_RFCKey(vector))
    [result] = verifier.verify(message, max_age=None)
    assert result.label == "sig-b26"

    sig = base64.b64decode(vector["signature"].split(":")[1])
    VerifyKey(bytes.fromhex(vector["key"]["publicKeyHex"])).verify(vector["signatureBase"].encode(), sig)


@pytest.mark.parametrize("method,path,query,body", CASES)
def test_library_verifies_pushnode_signatures(pushnode_bin, method, path, query, body):
    headers = sign_with_pushnode(pushnode_bin, method, path, query, body)
    _, _, account = key_from_seed(SEED)

    result = verify_with_library(method, path, query, body, headers)
    assert result.label == "push"
    covered = [k.strip('"') for k in result.covered_components if k != '"@signature-params"']
    assert covered == profile_components(query, body)
    assert result.parameters["keyid"] == account
    assert result.parameters["alg"] == "ed25519"
    assert len(result.parameters["nonce"]) >= 16
    assert abs(result.parameters["created"] - datetime.datetime.now().timestamp()) < 600

    if body:
        assert headers["Content-Digest"] == sha256_digest_header(body)
    else:
        assert "Content-Digest" not in headers


@pytest.mark.parametrize("method,path,query,body", CASES)
def test_pynacl_verifies_pushnode_signatures_over_a_hand_built_base(pushnode_bin, method, path, query, body):
    headers = sign_with_pushnode(pushnode_bin, method, path, query, body, created=1700000000)
    signature_input = headers["Signature-Input"]
    assert signature_input.startswith("push=(")
    assert ";created=1700000000;nonce=" in signature_input
    base = signature_base_by_hand(method, path, query, headers.get("Content-Digest"), signature_input[len("push="):])
    signature = base64.b64decode(headers["Signature"][len("push=:"):-1])
    _, public, account = key_from_seed(SEED)
    assert public_key_from_account_id(account) == public
    VerifyKey(public).verify(base, signature)


@pytest.mark.parametrize("method,path,query,body", CASES)
def test_pushnode_verifies_library_signatures(pushnode_bin, method, path, query, body):
    account, headers = sign_with_library(SEED, method, path, query, body)
    rc, answer = verify_with_pushnode(pushnode_bin, method, path, query, body, headers)
    assert rc == 0, answer
    assert answer["valid"] is True
    assert answer["accountId"] == account


def test_pushnode_rejects_a_tampered_library_signature(pushnode_bin):
    body = b'{"deviceId":"d1"}'
    _, headers = sign_with_library(SEED, "POST", "/v1/tokens/revoke", None, body)
    rc, answer = verify_with_pushnode(pushnode_bin, "POST", "/v1/tokens/revoke", None, b'{"deviceId":"d2"}', headers)
    assert rc == 1
    assert answer == {"valid": False, "code": "auth.invalid_signature",
                      "message": "invalid request signature: Content-Digest does not match the body"}
    rc, answer = verify_with_pushnode(pushnode_bin, "POST", "/v1/tokens", None, body, headers)
    assert (rc, answer["code"]) == (1, "auth.invalid_signature")


def test_pushnode_reports_missing_and_malformed_headers(pushnode_bin):
    rc, out, _ = run_cli(pushnode_bin, "client", "verify-request", "--method", "GET", "--path", "/v1/tokens", check=False)
    assert (rc, json.loads(out)["code"]) == (1, "auth.missing")
    rc, out, _ = run_cli(pushnode_bin, "client", "verify-request", "--method", "GET", "--path", "/v1/tokens",
                         "--signature", "push=:AAAA:", check=False)
    assert (rc, json.loads(out)["code"]) == (1, "auth.malformed")


def test_the_committed_profile_vectors_are_what_the_library_produces():
    with open(make_signature_vectors.OUTPUT) as f:
        assert f.read() == make_signature_vectors.render()
