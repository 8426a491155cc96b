"""Interop: our RFC 8291 Web Push records and our JWTs, checked by independent implementations
(http_ece, py_vapid, PyJWT, cryptography)."""
import base64
import json
import os
import random
import time

import http_ece
import jwt as pyjwt
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from py_vapid import Vapid02

from conftest import VECTORS, cli_json, run_cli


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def raw_private(key) -> bytes:
    return key.private_numbers().private_value.to_bytes(32, "big")


class Subscriber:
    """A browser-side subscription: a P-256 key pair and a 16-byte auth secret."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def encrypt_args(self):
        return ["webpush", "encrypt", "--p256dh", b64u(raw_public(self.key)), "--auth", b64u(self.auth)]

    def decrypt_args(self):
        return ["webpush", "decrypt", "--private-key", b64u(raw_private(self.key)), "--auth", b64u(self.auth)]


SIZES = [0, 1, 15, 16, 41, 100, 1000, 2048, 3992, 3993] + random.Random(8291).sample(range(2, 3993), 6)


@pytest.mark.parametrize("size", SIZES)
def test_http_ece_decrypts_our_web_push_records(pushnode_bin, size):
    subscriber = Subscriber()
    plaintext = os.urandom(size)
    _, out, _ = run_cli(pushnode_bin, *subscriber.encrypt_args(), stdin=plaintext)
    body = unb64u(out.decode().strip())
    assert len(body) == 86 + size + 17
    assert body[16:21] == b"\x00\x00\x10\x00\x41"  # rs 4096, idlen 65
    opened = http_ece.decrypt(body, private_key=subscriber.key, auth_secret=subscriber.auth, version="aes128gcm")
    assert opened == plaintext


def test_each_message_gets_a_fresh_key_and_salt(pushnode_bin):
    subscriber = Subscriber()
    bodies = [unb64u(run_cli(pushnode_bin, *subscriber.encrypt_args(), stdin=b"same")[1].decode().strip()) for _ in range(3)]
    assert len({b[:16] for b in bodies}) == 3
    assert len({b[21:86] for b in bodies}) == 3


@pytest.mark.parametrize("size", [1, 41, 2048, 3993])
def test_we_decrypt_http_ece_records(pushnode_bin, size):
    subscriber = Subscriber()
    plaintext = os.urandom(size)
    body = http_ece.encrypt(
        plaintext, private_key=ec.generate_private_key(ec.SECP256R1()), dh=raw_public(subscriber.key),
        auth_secret=subscriber.auth, version="aes128gcm")
    _, out, _ = run_cli(pushnode_bin, *subscriber.decrypt_args(), stdin=b64u(body).encode() + b"\n")
    assert out == plaintext


def test_header_only_bodies_are_refused(pushnode_bin):
    """http_ece 1.2.1 encrypts an empty plaintext as a header with no record at all. RFC 8291
    wants exactly one record, and a body with no record cannot be told from one cut after its
    header, so we refuse it (our own encoder writes one record holding just the 0x02 delimiter)."""
    subscriber = Subscriber()
    body = http_ece.encrypt(
        b"", private_key=ec.generate_private_key(ec.SECP256R1()), dh=raw_public(subscriber.key),
        auth_secret=subscriber.auth, version="aes128gcm")
    assert len(body) == 86
    rc, out, err = run_cli(pushnode_bin, *subscriber.decrypt_args(), stdin=b64u(body).encode(), check=False)
    assert rc == 2 and out == b"" and "no records" in err


@pytest.mark.parametrize("size", [10, 47, 48, 200])
def test_we_decrypt_http_ece_multi_record_bodies(pushnode_bin, size):
    subscriber = Subscriber()
    plaintext = os.urandom(size)
    body = http_ece.encrypt(
        plaintext, private_key=ec.generate_private_key(ec.SECP256R1()), dh=raw_public(subscriber.key),
        auth_secret=subscriber.auth, rs=64, version="aes128gcm")
    _, out, _ = run_cli(pushnode_bin, *subscriber.decrypt_args(), stdin=b64u(body).encode())
    assert out == plaintext


def test_rfc8291_appendix_a_opens_with_our_decrypt(pushnode_bin):
    with open(os.path.join(VECTORS, "rfc8291.json")) as f:
        v = json.load(f)
    _, out, _ = run_cli(pushnode_bin, "webpush", "decrypt", "--private-key", v["uaPrivate"], "--auth", v["auth"],
                        stdin=v["body"].encode())
    assert out == v["plaintext"].encode()


def test_plaintext_over_3993_bytes_is_refused(pushnode_bin):
    rc, out, err = run_cli(pushnode_bin, *Subscriber().encrypt_args(), stdin=os.urandom(3994), check=False)
    assert rc == 2 and out == b""
    assert "3993" in err


def test_bad_subscription_keys_are_refused(pushnode_bin):
    subscriber = Subscriber()
    point = bytearray(raw_public(subscriber.key))
    point[64] ^= 1
    rc, out, err = run_cli(pushnode_bin, "webpush", "encrypt", "--p256dh", b64u(bytes(point)), "--auth",
                           b64u(subscriber.auth), stdin=b"x", check=False)
    assert rc == 2 and out == b"" and "P-256" in err
    rc, out, err = run_cli(pushnode_bin, "webpush", "encrypt", "--p256dh", b64u(raw_public(subscriber.key)), "--auth",
                           b64u(os.urandom(15)), stdin=b"x", check=False)
    assert rc == 2 and out == b"" and "expected 16" in err


def test_tampered_or_misaddressed_records_print_nothing(pushnode_bin):
    subscriber = Subscriber()
    _, out, _ = run_cli(pushnode_bin, *subscriber.encrypt_args(), stdin=b"secret text")
    body = bytearray(unb64u(out.decode().strip()))
    body[-1] ^= 1
    rc, out, err = run_cli(pushnode_bin, *subscriber.decrypt_args(), stdin=b64u(bytes(body)).encode(), check=False)
    assert rc == 2 and out == b"" and "decryption failed" in err
    body[-1] ^= 1
    rc, out, _ = run_cli(pushnode_bin, *Subscriber().decrypt_args(), stdin=b64u(bytes(body)).encode(), check=False)
    assert rc == 2 and out == b""


# --- VAPID (RFC 8292) -------------------------------------------------------------------

def test_vapid_key_file_and_token_verify_with_py_vapid_and_pyjwt(pushnode_bin, tmp_path):
    key_file = tmp_path / "vapid.pem"
    created = cli_json(pushnode_bin, "keys", "vapid", "--out", str(key_file))
    assert set(created) == {"publicKey"}
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    private_key = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
    assert b64u(raw_public(private_key)) == created["publicKey"]
    assert Vapid02.from_file(str(key_file)).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint) == raw_public(private_key)

    before = int(time.time())
    signed = cli_json(pushnode_bin, "jwt", "vapid", "--key", str(key_file), "--aud",
                      "https://updates.push.services.mozilla.com/wpush/v2/abc", "--sub", "mailto:ops@example.com")
    token, header = signed["token"], signed["header"]
    assert header == f"vapid t={token}, k={created['publicKey']}"
    # py_vapid splits on the last space; RFC 8292 allows whitespace after the comma, py_vapid does not.
    assert Vapid02.verify(header.replace(", k=", ",k="))

    claims = pyjwt.decode(token, key=private_key.public_key(), algorithms=["ES256"],
                          audience="https://updates.push.services.mozilla.com",
                          options={"require": ["aud", "exp", "sub"]})
    assert claims["sub"] == "mailto:ops@example.com"
    assert before + 12 * 3600 - 5 <= claims["exp"] <= int(time.time()) + 24 * 3600
    assert pyjwt.get_unverified_header(token) == {"typ": "JWT", "alg": "ES256"}
    with pytest.raises(pyjwt.InvalidAudienceError):
        pyjwt.decode(token, key=private_key.public_key(), algorithms=["ES256"], audience="https://fcm.googleapis.com")

    rc, out, err = run_cli(pushnode_bin, "keys", "vapid", "--out", str(key_file), check=False)
    assert rc == 2 and out == b"" and "refusing to overwrite" in err


def test_vapid_key_without_out_prints_the_private_key_forms(pushnode_bin):
    created = cli_json(pushnode_bin, "keys", "vapid")
    private_key = serialization.load_pem_private_key(created["privateKeyPem"].encode(), password=None)
    assert raw_private(private_key) == unb64u(created["privateKey"])
    assert b64u(raw_public(private_key)) == created["publicKey"]
    assert Vapid02.from_raw(created["privateKey"].encode()).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint) == raw_public(private_key)


def test_vapid_rejects_a_bad_subject_and_lifetime(pushnode_bin, tmp_path):
    key_file = tmp_path / "vapid.pem"
    cli_json(pushnode_bin, "keys", "vapid", "--out", str(key_file))
    rc, out, _ = run_cli(pushnode_bin, "jwt", "vapid", "--key", str(key_file), "--aud", "https://a.example",
                         "--sub", "ops@example.com", check=False)
    assert rc == 2 and out == b""
    rc, out, _ = run_cli(pushnode_bin, "jwt", "vapid", "--key", str(key_file), "--aud", "https://a.example",
                         "--expires-in", "86401", check=False)
    assert rc == 2 and out == b""


# --- APNs ES256 with a .p8 key ------------------------------------------------------------

def test_pyjwt_verifies_an_apns_token_signed_with_a_p8_key(pushnode_bin, tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    p8 = tmp_path / "AuthKey_ABC123DEFG.p8"
    p8.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    now = int(time.time())
    token = cli_json(pushnode_bin, "jwt", "apns", "--key", str(p8), "--key-id", "ABC123DEFG", "--team-id",
                     "DEF123GHIJ", "--iat", str(now))["token"]
    assert pyjwt.get_unverified_header(token) == {"alg": "ES256", "kid": "ABC123DEFG"}
    assert pyjwt.decode(token, key=key.public_key(), algorithms=["ES256"]) == {"iss": "DEF123GHIJ", "iat": now}
    with pytest.raises(pyjwt.InvalidSignatureError):
        pyjwt.decode(token, key=ec.generate_private_key(ec.SECP256R1()).public_key(), algorithms=["ES256"])


def test_a_sec1_ec_private_key_signs_too(pushnode_bin, tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    pem = tmp_path / "sec1.pem"
    pem.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                      serialization.NoEncryption()))
    token = cli_json(pushnode_bin, "jwt", "apns", "--key", str(pem), "--key-id", "K", "--team-id", "T")["token"]
    assert pyjwt.decode(token, key=key.public_key(), algorithms=["ES256"])["iss"] == "T"


# --- RS256 (Google service-account assertion) -----------------------------------------------

@pytest.mark.parametrize("form", [serialization.PrivateFormat.PKCS8, serialization.PrivateFormat.TraditionalOpenSSL])
def test_cryptography_verifies_our_rs256_signature(pushnode_bin, tmp_path, form):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = tmp_path / "rsa.pem"
    pem.write_bytes(key.private_bytes(serialization.Encoding.PEM, form, serialization.NoEncryption()))
    claims = '{"iss":"svc@project.iam.gserviceaccount.com","aud":"https://oauth2.googleapis.com/token","iat":1}'
    token = cli_json(pushnode_bin, "jwt", "rs256", "--key", str(pem), "--claims", claims)["token"]
    header_b64, claims_b64, signature_b64 = token.split(".")
    assert unb64u(header_b64) == b'{"alg":"RS256","typ":"JWT"}'
    assert unb64u(claims_b64) == claims.encode()
    key.public_key().verify(unb64u(signature_b64), f"{header_b64}.{claims_b64}".encode(), padding.PKCS1v15(),
                            hashes.SHA256())


def test_google_service_account_assertion(pushnode_bin, tmp_path):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    account = {
        "type": "service_account", "project_id": "demo", "private_key_id": "k1",
        "private_key": key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()).decode(),
        "client_email": "pushnode@demo.iam.gserviceaccount.com", "token_uri": "https://oauth2.googleapis.com/token",
    }
    path = tmp_path / "service-account.json"
    path.write_text(json.dumps(account))
    now = int(time.time())
    token = cli_json(pushnode_bin, "jwt", "google", "--service-account", str(path), "--iat", str(now))["token"]
    assert pyjwt.get_unverified_header(token) == {"alg": "RS256", "typ": "JWT", "kid": "k1"}
    claims = pyjwt.decode(token, key=key.public_key(), algorithms=["RS256"], audience=account["token_uri"])
    assert claims == {"iss": account["client_email"], "scope": "https://www.googleapis.com/auth/firebase.messaging",
                      "aud": account["token_uri"], "iat": now, "exp": now + 3600}
