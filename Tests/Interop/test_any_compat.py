"""Independent check of the any-compatible crypto (Spec/crypto.md §2, §4-§9).

Every vector in Spec/vectors/{account-id,any-compat,slip10-slip21,ed25519-pynacl}.json is
recomputed here with Python's hmac/hashlib (SLIP-10, SLIP-21, CRC16, base58), PyNaCl
(Ed25519) and cryptography (AES-256-GCM), and the CLI is driven against them.

`python Tests/Interop/test_any_compat.py` rewrites ed25519-pynacl.json from PyNaCl.
"""
import base64
import hashlib
import hmac
import json
import os
import stat

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from conftest import VECTORS, cli_json, run_cli

# ---------------------------------------------------------------- independent primitives

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58encode(data: bytes) -> str:
    zeros = len(data) - len(data.lstrip(b"\0"))
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * zeros + out


def b58decode(text: str) -> bytes:
    n = 0
    for c in text:
        if c not in B58:
            raise ValueError("base58 character")
        n = n * 58 + B58.index(c)
    zeros = len(text) - len(text.lstrip("1"))
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return b"\0" * zeros + body


def crc16_xmodem(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def account_id(pub: bytes) -> str:
    body = b"\x5b" + pub
    return b58encode(body + crc16_xmodem(body).to_bytes(2, "little"))


def parse_account_id(text: str) -> bytes:
    """Returns the public key or raises ValueError naming the failed check."""
    try:
        raw = b58decode(text)
    except ValueError:
        raise ValueError("encoding")
    if len(raw) != 35:
        raise ValueError("encoding")
    if raw[0] != 0x5B:
        raise ValueError("version")
    if raw[33:] != crc16_xmodem(raw[:33]).to_bytes(2, "little"):
        raise ValueError("checksum")
    return raw[1:33]


def slip10_ed25519(seed: bytes, path: str):
    """(private key, chain code) at a hardened-only path."""
    digest = hmac.new(b"ed25519 seed", seed, hashlib.sha512).digest()
    key, chain = digest[:32], digest[32:]
    parts = path.split("/")
    assert parts[0] == "m"
    for part in parts[1:]:
        assert part.endswith("'")
        index = int(part[:-1]) + 2**31
        digest = hmac.new(chain, b"\0" + key + index.to_bytes(4, "big"), hashlib.sha512).digest()
        key, chain = digest[:32], digest[32:]
    return key, chain


def slip21(seed: bytes, path: str) -> bytes:
    node = hmac.new(b"Symmetric key seed", seed, hashlib.sha512).digest()
    parts = path.split("/")
    assert parts[0] == "m"
    for label in parts[1:]:
        node = hmac.new(node[:32], b"\0" + label.encode(), hashlib.sha512).digest()
    return node[32:]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def load(name):
    with open(os.path.join(VECTORS, name), encoding="utf-8") as f:
        return json.load(f)


def load_cases(name):
    """The cases of a vector file. While the file is being (re)generated (`python
    Tests/Interop/test_any_compat.py`) it may be absent: then one `None` case, which fails (an empty
    parameter set would make pytest skip the test silently)."""
    path = os.path.join(VECTORS, name)
    return load(name)["cases"] if os.path.exists(path) else [pytest.param(None, id=f"{name} missing")]


ANY = load("any-compat.json")["cases"]

# ---------------------------------------------------------------- vectors


@pytest.mark.parametrize("case", load("account-id.json")["valid"], ids=lambda c: c["name"])
def test_account_id_valid(case):
    pub = bytes.fromhex(case["publicKey"])
    if "seed" in case:
        assert bytes(SigningKey(bytes.fromhex(case["seed"])).verify_key) == pub
    assert account_id(pub) == case["accountId"]
    assert parse_account_id(case["accountId"]) == pub


@pytest.mark.parametrize("case", load("account-id.json")["invalid"], ids=lambda c: c["name"])
def test_account_id_invalid(case):
    with pytest.raises(ValueError) as err:
        parse_account_id(case["accountId"])
    assert str(err.value) == case["error"]


SLIP = load("slip10-slip21.json")


@pytest.mark.parametrize("vector", SLIP["slip10Ed25519"], ids=lambda v: v["seed"][:8])
def test_slip10_official_vectors(vector):
    for chain in vector["chains"]:
        key, code = slip10_ed25519(bytes.fromhex(vector["seed"]), chain["path"])
        assert (key.hex(), code.hex()) == (chain["privateKey"], chain["chainCode"]), chain["path"]


def test_slip21_official_vector():
    seed = bytes.fromhex(SLIP["slip21"]["seed"])
    for node in SLIP["slip21"]["nodes"]:
        assert slip21(seed, node["path"]).hex() == node["key"], node["path"]


@pytest.mark.parametrize("case", ANY, ids=lambda c: c["name"])
def test_any_compat_vector(case):
    meta_seed = bytes.fromhex(case["metadataKeySeed"])
    raw64 = meta_seed + bytes(SigningKey(meta_seed).verify_key)
    assert raw64.hex() == case["metadataKeyRaw64"]

    push_seed, _ = slip10_ed25519(raw64, "m/99999'/1'")
    assert push_seed.hex() == case["spacePushSeed"]
    space = SigningKey(push_seed)
    assert bytes(space.verify_key).hex() == case["spacePushPublic"]
    assert b58encode(bytes(space.verify_key)) == case["spaceKey"]

    enc = slip21(bytes.fromhex(case["readKey"]), "m/SLIP-0021/anytype/space/key")
    assert enc.hex() == case["encKey"]
    assert b64(enc) == case["encKeyBase64"]
    assert hashlib.sha256(enc).hexdigest() == case["encKeyId"]

    account = SigningKey(bytes.fromhex(case["accountSeed"]))
    assert bytes(account.verify_key).hex() == case["accountPublic"]
    assert account_id(bytes(account.verify_key)) == case["accountId"]

    # Ed25519 is deterministic: PyNaCl must produce the very same signatures.
    assert b64(space.sign(case["topic"].encode()).signature) == case["topicSignature"]
    assert b64(space.sign(case["accountId"].encode()).signature) == case["spaceRegistrationSignature"]

    nonce = bytes.fromhex(case["nonce"])
    sealed = nonce + AESGCM(enc).encrypt(nonce, case["plaintext"].encode(), None)
    assert b64(sealed) == case["payload"]
    assert len(sealed) == case["sealedSize"]
    assert b64(account.sign(sealed).signature) == case["payloadSignature"]


# The published any/Anytype worked example, committed verbatim; PUSHNODE_ANY_REFERENCE may name
# another copy (e.g. a newer upstream one) to compare against instead.
REFERENCE = os.environ.get("PUSHNODE_ANY_REFERENCE") or os.path.join(VECTORS, "any-compat-reference.json")


def test_any_compat_reference_case_is_verbatim():
    assert os.path.exists(REFERENCE), f"the reference vector is missing: {REFERENCE}"
    with open(REFERENCE, encoding="utf-8") as f:
        reference = json.load(f)
    assert {"spaceKey", "encKeyId", "accountId", "topicSignature", "payload", "payloadSignature"} <= reference.keys()
    assert {k: ANY[0][k] for k in reference} == reference


def test_near_limit_case_fills_the_default_payload_limit():
    assert [c["sealedSize"] for c in ANY if c["name"].startswith("near limit")] == [2816]
    assert any(c["plaintext"] == "{}" for c in ANY)


def pynacl_cases():
    """The signatures of ed25519-pynacl.json, as PyNaCl makes them."""
    def seed(label):
        return hashlib.sha256(b"pushnode pynacl " + label.encode()).digest()

    first = ANY[0]
    inputs = [
        ("RFC 8032 7.1 TEST 1 (empty message)",
         bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"), b""),
        ("empty message", seed("empty"), b""),
        ("topic", seed("topic"), b"chats"),
        ("space registration: account id text", seed("registration"), first["accountId"].encode()),
        ("message: sealed payload bytes", seed("message"), base64.b64decode(first["payload"])),
        ("1000 bytes", seed("long"), bytes((i * 7) % 256 for i in range(1000))),
    ]
    cases = []
    for name, sk, message in inputs:
        key = SigningKey(sk)
        cases.append({
            "name": name,
            "seed": sk.hex(),
            "publicKey": bytes(key.verify_key).hex(),
            "message": message.hex(),
            "signature": b64(key.sign(message).signature),
        })
    return {
        "description": "Ed25519 signatures produced by PyNaCl (libsodium) that PushCrypto must verify and reproduce. "
                       "Regenerate with: python Tests/Interop/test_any_compat.py",
        "cases": cases,
    }


def test_ed25519_pynacl_vectors_are_pynacls():
    assert load("ed25519-pynacl.json") == pynacl_cases()


def test_pynacl_agrees_with_rfc8032_test_1():
    rfc = load("ed25519-pynacl.json")["cases"][0]
    assert rfc["publicKey"] == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    assert base64.b64decode(rfc["signature"]).hex() == (
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    )


# ---------------------------------------------------------------- CLI against the independent implementations


@pytest.mark.parametrize("size", [0, 1, 64, 1000, 5000])
def test_pynacl_verifies_keys_sign(pushnode_bin, size):
    seed = os.urandom(32)
    message = os.urandom(size)
    out = cli_json(pushnode_bin, "keys", "sign", "--seed", seed.hex(), stdin=message)
    pub = bytes(SigningKey(seed).verify_key)
    assert out["publicKey"] == pub.hex()
    assert out["accountId"] == account_id(pub)
    VerifyKey(pub).verify(message, base64.b64decode(out["signature"]))
    with pytest.raises(BadSignatureError):
        VerifyKey(pub).verify(message + b"x", base64.b64decode(out["signature"]))


def test_keys_sign_reads_a_seed_file(pushnode_bin, tmp_path):
    seed = os.urandom(32)
    path = tmp_path / "seed"
    path.write_text(seed.hex() + "\n")
    out = cli_json(pushnode_bin, "keys", "sign", "--seed-file", str(path), stdin=b"hi")
    VerifyKey(bytes(SigningKey(seed).verify_key)).verify(b"hi", base64.b64decode(out["signature"]))


def _flip(signature: bytes, bit: int) -> bytes:
    flipped = bytearray(signature)
    flipped[bit // 8] ^= 1 << (bit % 8)
    return bytes(flipped)


@pytest.mark.parametrize("form", ["public-key", "account-id", "space-key"])
def test_keys_verify_accepts_pynacl_and_rejects_a_flipped_bit(pushnode_bin, form):
    key = SigningKey.generate()
    pub = bytes(key.verify_key)
    message = os.urandom(200)
    signature = key.sign(message).signature
    identity = {"public-key": pub.hex(), "account-id": account_id(pub), "space-key": b58encode(pub)}[form]

    assert cli_json(pushnode_bin, "keys", "verify", f"--{form}", identity, "--signature", b64(signature),
                    stdin=message) == {"valid": True}
    for bit in (0, 255, 511):
        rc, out, err = run_cli(pushnode_bin, "keys", "verify", f"--{form}", identity,
                               "--signature", b64(_flip(signature, bit)), stdin=message, check=False)
        assert (rc, out) == (2, b"")
        assert "does not verify" in err
    rc, out, _ = run_cli(pushnode_bin, "keys", "verify", f"--{form}", identity, "--signature", b64(signature),
                         stdin=message[:-1], check=False)
    assert (rc, out) == (2, b"")


@pytest.mark.parametrize("case", load_cases("ed25519-pynacl.json"), ids=lambda c: c["name"])
def test_keys_verify_accepts_the_pynacl_vectors(pushnode_bin, case):
    assert case is not None, "Spec/vectors/ed25519-pynacl.json is missing (python Tests/Interop/test_any_compat.py writes it)"
    assert cli_json(pushnode_bin, "keys", "verify", "--public-key", case["publicKey"], "--signature", case["signature"],
                    stdin=bytes.fromhex(case["message"])) == {"valid": True}


def test_keys_verify_rejects_a_bad_account_id(pushnode_bin):
    bad = load("account-id.json")["invalid"][0]["accountId"]
    rc, out, err = run_cli(pushnode_bin, "keys", "verify", "--account-id", bad, "--signature", b64(bytes(64)),
                           check=False)
    assert (rc, out) == (2, b"")
    assert "account id" in err


@pytest.mark.parametrize("size", [0, 1, 15, 16, 17, 2788, 10000])
def test_cryptography_opens_payload_seal(pushnode_bin, size):
    key = os.urandom(32)
    plaintext = os.urandom(size)
    _, out, _ = run_cli(pushnode_bin, "payload", "seal", "--key", b64(key), stdin=plaintext)
    sealed = base64.b64decode(out.strip(), validate=True)
    assert len(sealed) == size + 28
    assert AESGCM(key).decrypt(sealed[:12], sealed[12:], None) == plaintext
    with pytest.raises(InvalidTag):
        AESGCM(key).decrypt(sealed[:12], sealed[12:], b"aad")


def test_payload_seal_uses_a_fresh_nonce(pushnode_bin):
    key = b64(os.urandom(32))
    nonces = {base64.b64decode(run_cli(pushnode_bin, "payload", "seal", "--key", key, stdin=b"x")[1])[:12]
              for _ in range(3)}
    assert len(nonces) == 3


@pytest.mark.parametrize("size", [0, 1, 100, 2788, 10000])
def test_payload_open_opens_cryptography_sealed_bytes(pushnode_bin, size):
    key = os.urandom(32)
    nonce = os.urandom(12)
    plaintext = os.urandom(size)
    sealed = nonce + AESGCM(key).encrypt(nonce, plaintext, None)
    _, out, _ = run_cli(pushnode_bin, "payload", "open", "--key", b64(key), stdin=(b64(sealed) + "\n").encode())
    assert out == plaintext


@pytest.mark.parametrize("case", ANY, ids=lambda c: c["name"])
def test_payload_open_opens_the_vectors(pushnode_bin, case):
    _, out, _ = run_cli(pushnode_bin, "payload", "open", "--key", case["encKeyBase64"], stdin=case["payload"].encode())
    assert out == case["plaintext"].encode()


def _payload_open_fails(binary, key, stdin, expected):
    rc, out, err = run_cli(binary, "payload", "open", "--key", key, stdin=stdin, check=False)
    assert (rc, out) == (2, b""), err
    assert "payload does not open" in err and expected in err


def test_payload_open_failures_print_nothing_on_stdout(pushnode_bin):
    case = ANY[0]
    sealed = base64.b64decode(case["payload"])
    key = case["encKeyBase64"]
    _payload_open_fails(pushnode_bin, b64(os.urandom(32)), case["payload"].encode(), "wrong key")
    for index in (0, 12, len(sealed) - 1):  # nonce, ciphertext, tag
        tampered = bytearray(sealed)
        tampered[index] ^= 0x80
        _payload_open_fails(pushnode_bin, key, b64(bytes(tampered)).encode(), "wrong key or altered")
    _payload_open_fails(pushnode_bin, key, b64(sealed[:27]).encode(), "shorter")
    _payload_open_fails(pushnode_bin, key, b64(sealed[:-1]).encode(), "altered")
    _payload_open_fails(pushnode_bin, key, b"not base64!", "base64")


@pytest.mark.parametrize("case", ANY, ids=lambda c: c["name"])
@pytest.mark.parametrize("form", ["metadataKeySeed", "metadataKeyRaw64"])
def test_keys_derive_equals_the_vector(pushnode_bin, case, form):
    out = cli_json(pushnode_bin, "keys", "derive", "--metadata-key", case[form], "--read-key", case["readKey"])
    assert out == {
        "spaceKey": case["spaceKey"],
        "spacePublicKey": case["spacePushPublic"],
        "encKeyBase64": case["encKeyBase64"],
        "encKeyId": case["encKeyId"],
    }


@pytest.mark.parametrize("metadata_key, message", [
    (ANY[0]["metadataKeyRaw64"][:-2] + "00", "public half does not match"),
    (ANY[0]["metadataKeySeed"][:-2], "32 bytes"),
    ("zz", "not hex"),
])
def test_keys_derive_rejects_bad_metadata_keys(pushnode_bin, metadata_key, message):
    rc, out, err = run_cli(pushnode_bin, "keys", "derive", "--metadata-key", metadata_key,
                           "--read-key", ANY[0]["readKey"], check=False)
    assert (rc, out) == (2, b"")
    assert message in err


def test_keys_account_seed_gives_its_account_id(pushnode_bin):
    out = cli_json(pushnode_bin, "keys", "account")
    assert set(out) == {"accountId", "seed"}
    pub = bytes(SigningKey(bytes.fromhex(out["seed"])).verify_key)
    assert out["accountId"] == account_id(pub)
    assert parse_account_id(out["accountId"]) == pub


def test_keys_account_out_writes_the_seed_0600_and_keeps_it_off_stdout(pushnode_bin, tmp_path):
    path = tmp_path / "account.seed"
    out = cli_json(pushnode_bin, "keys", "account", "--out", str(path))
    assert set(out) == {"accountId"}
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    seed = bytes.fromhex(path.read_text().strip())
    assert out["accountId"] == account_id(bytes(SigningKey(seed).verify_key))

    rc, again, err = run_cli(pushnode_bin, "keys", "account", "--out", str(path), check=False)
    assert (rc, again) == (2, b"")
    assert "already exists" in err
    assert bytes.fromhex(path.read_text().strip()) == seed


def test_unknown_subcommands_exit_2(pushnode_bin):
    for args in (["keys", "nope"], ["keys"], ["payload", "nope"]):
        rc, out, err = run_cli(pushnode_bin, *args, check=False)
        assert (rc, out) == (2, b"")
        assert "subcommand" in err


if __name__ == "__main__":
    with open(os.path.join(VECTORS, "ed25519-pynacl.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(pynacl_cases(), indent=2) + "\n")
