"""Keys (Spec/crypto.md §2–§8): the account key that signs requests and payloads, and a space's two
keys — the push key (Ed25519) that signs topics and registrations, and the payload key (AES-256)
that seals payloads. A space comes from a space file (`pushnode client space new`), from fresh
random bytes, or — for any/Anytype spaces — from ACL material (SLIP-10 / SLIP-21)."""
import hashlib
import hmac
import json
import os
import stat

from nacl.signing import SigningKey

from .encoding import account_id, b64, base58_encode, unb64
from .sealing import key_id

SPACE_FORMAT = "pushnode-space-v1"


def _read_owner_only(path: str) -> bytes:
    """Refuses a key file others may read or write, as ssh and pushnode do."""
    mode = os.stat(path).st_mode
    if mode & 0o077:
        raise PermissionError(f"{path} is accessible by others (mode {stat.S_IMODE(mode):o}); chmod 600 it")
    with open(path, "rb") as f:
        return f.read()


def _write_new_secret(path: str, data: bytes):
    """Creates `path` at mode 0600; never replaces a file (it may hold the only copy of a key)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


class Account:
    """An Ed25519 account key; `id` is its account id (base58, starts with `A`)."""

    def __init__(self, seed: bytes):
        self.signing_key = SigningKey(seed)
        self.seed = bytes(seed)
        self.public_key = bytes(self.signing_key.verify_key)
        self.id = account_id(self.public_key)

    @classmethod
    def generate(cls):
        return cls(os.urandom(32))

    @classmethod
    def load(cls, path: str):
        """The file `pushnode client account new --out` writes: 64 hex digits and a newline, 0600."""
        return cls(bytes.fromhex(_read_owner_only(path).decode().strip()))

    def save(self, path: str):
        _write_new_secret(path, (self.seed.hex() + "\n").encode())

    def sign(self, message: bytes) -> bytes:
        return self.signing_key.sign(message).signature


class Space:
    """A space's push key seed and payload key. `space_key` names the space on the wire."""

    def __init__(self, push_key_seed: bytes, payload_key: bytes):
        if len(push_key_seed) != 32 or len(payload_key) != 32:
            raise ValueError("the push key seed and the payload key are 32 bytes each")
        self.push_key = SigningKey(push_key_seed)
        self.push_key_seed = bytes(push_key_seed)
        self.payload_key = bytes(payload_key)
        self.space_key = base58_encode(bytes(self.push_key.verify_key))
        self.key_id = key_id(self.payload_key)

    @classmethod
    def generate(cls):
        """A random space with no ACL material, like `pushnode client space new`."""
        return cls(os.urandom(32), os.urandom(32))

    @classmethod
    def derive(cls, metadata_key: bytes, read_key: bytes):
        """any's derivation: SLIP-10 ed25519 m/99999'/1' over the 64-byte form of the first metadata
        key, SLIP-21 m/SLIP-0021/anytype/space/key over the read key (Spec/crypto.md §5–§8)."""
        if len(metadata_key) == 32:
            metadata_key = metadata_key + bytes(SigningKey(metadata_key).verify_key)
        if len(metadata_key) != 64 or bytes(SigningKey(metadata_key[:32]).verify_key) != metadata_key[32:]:
            raise ValueError("the first metadata key is a 32-byte seed or 64 bytes (seed ‖ public key)")
        if len(read_key) != 32:
            raise ValueError("the read key is 32 bytes")
        return cls(slip10_ed25519(metadata_key, [99999, 1]), slip21(read_key, ["SLIP-0021", "anytype", "space", "key"]))

    @classmethod
    def load(cls, path: str):
        """A space file (JSON, 0600): `pushKeySeed` (hex) and `payloadKey` (base64); `spaceKey` and
        `keyId`, when present, must match them."""
        document = json.loads(_read_owner_only(path))
        if document.get("format") != SPACE_FORMAT:
            raise ValueError(f"{path} is not a space file ({SPACE_FORMAT})")
        space = cls(bytes.fromhex(document["pushKeySeed"]), unb64(document["payloadKey"]))
        if document.get("spaceKey", space.space_key) != space.space_key:
            raise ValueError(f"{path}: spaceKey is not the public key of pushKeySeed")
        if document.get("keyId", space.key_id).lower() != space.key_id:
            raise ValueError(f"{path}: keyId is not the SHA-256 of payloadKey")
        return space

    def save(self, path: str):
        document = {"format": SPACE_FORMAT, "spaceKey": self.space_key, "pushKeySeed": self.push_key_seed.hex(),
                    "payloadKey": b64(self.payload_key), "keyId": self.key_id}
        _write_new_secret(path, (json.dumps(document, indent=2, sort_keys=True) + "\n").encode())

    def sign_topic(self, topic: str) -> dict:
        """A `Topic` (PROTOCOL §3.4): the push key's signature over the UTF-8 topic alone."""
        signature = self.push_key.sign(topic.encode()).signature
        return {"spaceKey": self.space_key, "topic": topic, "signature": b64(signature)}

    def sign_registration(self, account_id_text: str) -> str:
        """`POST /v1/spaces` `signature`: over the UTF-8 bytes of the caller's account id."""
        return b64(self.push_key.sign(account_id_text.encode()).signature)


def slip10_ed25519(seed: bytes, indices) -> bytes:
    """SLIP-0010 for ed25519, hardened children only (Spec/crypto.md §5)."""
    node = hmac.new(b"ed25519 seed", seed, hashlib.sha512).digest()
    key, chain = node[:32], node[32:]
    for index in indices:
        data = b"\0" + key + (index + 0x80000000).to_bytes(4, "big")
        node = hmac.new(chain, data, hashlib.sha512).digest()
        key, chain = node[:32], node[32:]
    return key


def slip21(seed: bytes, labels) -> bytes:
    """SLIP-0021 symmetric derivation (Spec/crypto.md §6): bytes 32–63 of the last node."""
    node = hmac.new(b"Symmetric key seed", seed, hashlib.sha512).digest()
    for label in labels:
        node = hmac.new(node[:32], b"\0" + label.encode(), hashlib.sha512).digest()
    return node[32:]
