"""Payload sealing (Spec/crypto.md §8–§9): AES-256-GCM, `nonce(12) ‖ ciphertext ‖ tag(16)`, no AAD;
keyId = lowercase hex SHA-256 of the 32-byte payload key."""
import hashlib
import os

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

NONCE_SIZE = 12
OVERHEAD = NONCE_SIZE + 16


def key_id(payload_key: bytes) -> str:
    return hashlib.sha256(payload_key).hexdigest()


def seal(payload_key: bytes, plaintext: bytes, nonce: bytes = None) -> bytes:
    """Seals with a fresh random nonce. Pass `nonce` only to reproduce a test vector."""
    if len(payload_key) != 32:
        raise ValueError("a payload key is 32 bytes")
    nonce = os.urandom(NONCE_SIZE) if nonce is None else nonce
    return nonce + AESGCM(payload_key).encrypt(nonce, plaintext, None)


def open_sealed(payload_key: bytes, sealed: bytes) -> bytes:
    """The plaintext; raises `cryptography.exceptions.InvalidTag` for a wrong key or altered bytes."""
    if len(sealed) < OVERHEAD:
        raise ValueError("a sealed payload is at least 28 bytes")
    return AESGCM(payload_key).decrypt(sealed[:NONCE_SIZE], sealed[NONCE_SIZE:], None)
