"""Writes Spec/vectors/http-signature-profile.json: PROTOCOL §2 request signatures made by the
Python `http-message-signatures` library (fixed key, created time and nonces; Ed25519 is
deterministic, so the output is stable). The Swift verifier tests must accept every case.

    python Tests/Interop/make_signature_vectors.py          # rewrite the file
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pushnode_signatures import key_from_seed, sign_with_library  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUT = os.path.join(ROOT, "Spec", "vectors", "http-signature-profile.json")
SEED = bytes(range(32))
CREATED = 1_750_000_000

CASES = [
    ("GET", "/v1/tokens", None, b""),
    ("GET", "/v1/subscriptions", "cursor=a%20b&limit=10", b""),
    ("POST", "/v1/notify", None, b'{"topics":[],"kind":"message"}'),
    ("PUT", "/v1/subscriptions", "x=1", b'{"topics": []}'),
]


def build():
    _, public, keyid = key_from_seed(SEED)
    cases = []
    for i, (method, path, query, body) in enumerate(CASES):
        _, headers = sign_with_library(SEED, method, path, query, body, created=CREATED,
                                       nonce=f"python-vector-nonce-{i:04d}")
        cases.append({
            "method": method, "path": path, "query": query, "body": body.decode(),
            "headers": {name: headers[name] for name in sorted(headers)},
        })
    return {
        "description": "PROTOCOL §2 request signatures made by the Python http-message-signatures library "
                       "(Tests/Interop/make_signature_vectors.py). Parameters come in the library's order "
                       "(created, keyid, alg, nonce), not the Swift signer's, which the verifier must accept.",
        "seedHex": SEED.hex(),
        "publicKeyHex": public.hex(),
        "accountId": keyid,
        "created": CREATED,
        "cases": cases,
    }


def render():
    return json.dumps(build(), indent=2) + "\n"


if __name__ == "__main__":
    with open(OUTPUT, "w") as f:
        f.write(render())
    print(OUTPUT)
