"""Reproduces the vectors of Spec/vectors/ with this package alone:

    python -m pushsender.selfcheck [--vectors DIR]        (default: ../../Spec/vectors from here)

Prints one line per vector file and exits 1 on the first mismatch. Every check rebuilds the
vector's bytes (Ed25519 and RFC 9421 are deterministic; sealing takes the vector's nonce) rather
than only verifying them."""
import argparse
import json
import os
import sys

from nacl.signing import SigningKey

from .encoding import account_id, b64, public_key_of_account, unb64
from .keys import Account, Space
from .receiver import open_push
from .sealing import key_id, seal
from .signing import components_for, content_digest, signature_base, signature_params

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_VECTORS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "Spec", "vectors"))


class Mismatch(AssertionError):
    pass


def expect(got, wanted, what):
    if got != wanted:
        raise Mismatch(f"{what}: got {got!r}, expected {wanted!r}")


def check_account_ids(vectors):
    """Spec/crypto.md §2: base58(0x5b ‖ pub ‖ CRC-16/XMODEM little-endian), parsed strictly."""
    for case in vectors["valid"]:
        public = bytes.fromhex(case["publicKey"])
        if "seed" in case:
            expect(Account(bytes.fromhex(case["seed"])).public_key, public, case["name"] + ": public key")
        expect(account_id(public), case["accountId"], case["name"])
        expect(public_key_of_account(case["accountId"]), public, case["name"] + ": parsed")
    for case in vectors["invalid"]:
        try:
            public_key_of_account(case["accountId"])
        except ValueError as error:
            reason = "version" if "version" in str(error) else "checksum" if "checksum" in str(error) else "encoding"
            expect(reason, case["error"], case["name"])
        else:
            raise Mismatch(f"{case['name']}: accepted")
    return len(vectors["valid"]) + len(vectors["invalid"])


def check_spaces_and_payloads(vectors):
    """Spec/crypto.md §4–§9: space keys, topic and registration signatures, sealing, the payload
    signature, and the receiver opening what was sealed."""
    for case in vectors["cases"]:
        name = case["name"]
        for metadata in (case["metadataKeySeed"], case["metadataKeyRaw64"]):
            derived = Space.derive(bytes.fromhex(metadata), bytes.fromhex(case["readKey"]))
            expect(derived.push_key_seed.hex(), case["spacePushSeed"], name + ": SLIP-10 push seed")
            expect(derived.payload_key.hex(), case["encKey"], name + ": SLIP-21 payload key")
        space = Space(bytes.fromhex(case["spacePushSeed"]), bytes.fromhex(case["encKey"]))
        expect(bytes(space.push_key.verify_key).hex(), case["spacePushPublic"], name + ": push public key")
        expect(space.space_key, case["spaceKey"], name + ": spaceKey")
        expect(space.key_id, case["encKeyId"], name + ": keyId")
        expect(b64(space.payload_key), case["encKeyBase64"], name + ": encKeyBase64")
        account = Account(bytes.fromhex(case["accountSeed"]))
        expect(account.id, case["accountId"], name + ": account id")
        expect(space.sign_topic(case["topic"])["signature"], case["topicSignature"], name + ": topic signature")
        expect(space.sign_registration(account.id), case["spaceRegistrationSignature"], name + ": registration")
        sealed = seal(space.payload_key, case["plaintext"].encode(), nonce=bytes.fromhex(case["nonce"]))
        expect(b64(sealed), case["payload"], name + ": sealed payload")
        expect(len(sealed), case["sealedSize"], name + ": sealed size")
        expect(b64(account.sign(sealed)), case["payloadSignature"], name + ": payload signature")
        data = {"x-any-type": "normal", "x-any-id": "n", "x-any-group-id": "", "x-any-payload": case["payload"],
                "x-any-signature": case["payloadSignature"], "x-any-key-id": case["encKeyId"]}
        expect(open_push(data, {space.key_id: space.payload_key}, account.id), case["plaintext"].encode(),
               name + ": opened")
    return len(vectors["cases"])


def check_request_signatures(vectors):
    """PROTOCOL §2: for each request the Content-Digest and the signature are rebuilt from the
    vector's own Signature-Input (made by another library, parameters in its order)."""
    seed = bytes.fromhex(vectors["seedHex"])
    account = Account(seed)
    expect(account.public_key.hex(), vectors["publicKeyHex"], "profile: public key")
    expect(account.id, vectors["accountId"], "profile: account id")
    for case in vectors["cases"]:
        body = case["body"].encode()
        headers = case["headers"]
        digest = content_digest(body) if body else None
        expect(digest, headers.get("Content-Digest"), f"{case['method']} {case['path']}: Content-Digest")
        params = headers["Signature-Input"].removeprefix("push=")
        components = params[1:params.index(")")].replace('"', "").split()
        expect(components, components_for(case["query"], body), f"{case['method']} {case['path']}: components")
        base = signature_base(case["method"], case["path"], case["query"], digest, params)
        expect("push=:" + b64(account.sign(base)) + ":", headers["Signature"], f"{case['method']} {case['path']}")
    # Our own parameter order signs and verifies the same way.
    params = signature_params(["@method", "@path"], vectors["created"], "selfcheck-nonce-0000", account.id)
    base = signature_base("GET", "/v1/tokens", None, None, params)
    account.signing_key.verify_key.verify(base, account.sign(base))
    return len(vectors["cases"])


def check_rfc9421(vector):
    """RFC 9421 Appendix B.2.6: Ed25519 over the RFC's signature base gives the RFC's signature."""
    signing = SigningKey(bytes.fromhex(vector["key"]["seedHex"]))
    expect(bytes(signing.verify_key).hex(), vector["key"]["publicKeyHex"], "rfc9421: public key")
    signature = signing.sign(vector["signatureBase"].encode()).signature
    expect(vector["label"] + "=:" + b64(signature) + ":", vector["signature"], "rfc9421: signature")
    return 1


def check_ed25519(vectors):
    for case in vectors["cases"]:
        signature = SigningKey(bytes.fromhex(case["seed"])).sign(bytes.fromhex(case["message"])).signature
        expect(b64(signature), case["signature"], case["name"])
    return len(vectors["cases"])


CHECKS = [
    ("account-id.json", check_account_ids),
    ("any-compat.json", check_spaces_and_payloads),
    ("http-signature-profile.json", check_request_signatures),
    ("rfc9421-ed25519.json", check_rfc9421),
    ("ed25519-pynacl.json", check_ed25519),
]


def run(directory=DEFAULT_VECTORS, out=sys.stdout):
    """Runs every check; returns the number of cases reproduced. Raises `Mismatch`."""
    total = 0
    for filename, check in CHECKS:
        with open(os.path.join(directory, filename)) as f:
            count = check(json.load(f))
        print(f"ok  {filename}: {count} case(s) reproduced", file=out)
        total += count
    # The receiver refuses what it must (no vector needed: a fresh key pair).
    space, sender = Space.generate(), Account.generate()
    sealed = seal(space.payload_key, b"{}")
    data = {"x-any-payload": b64(sealed), "x-any-signature": b64(Account.generate().sign(sealed)),
            "x-any-key-id": key_id(space.payload_key)}
    try:
        open_push(data, {space.key_id: space.payload_key}, sender.id)
    except Exception as error:
        expect(getattr(error, "reason", None), "bad_signature", "a stranger's signature")
    else:
        raise Mismatch("a stranger's signature was accepted")
    expect(unb64(data["x-any-payload"]), sealed, "base64 round trip")
    return total


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m pushsender.selfcheck", description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", default=DEFAULT_VECTORS, help="the Spec/vectors directory")
    args = parser.parse_args(argv)
    try:
        total = run(args.vectors)
    except Mismatch as error:
        print(f"MISMATCH {error}", file=sys.stderr)
        return 1
    print(f"all {total} vector cases reproduced")
    return 0


if __name__ == "__main__":
    sys.exit(main())
