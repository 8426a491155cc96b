"""Encodings of Spec/crypto.md §1–§2: base64 (standard, padded), base58 (bitcoin alphabet),
account ids (base58 of 0x5b ‖ public key ‖ CRC-16/XMODEM little-endian)."""
import base64

ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
ACCOUNT_VERSION = 0x5B


def b64(data: bytes) -> str:
    """Standard base64 with padding: signatures and payloads in JSON."""
    return base64.b64encode(data).decode("ascii")


def unb64(text: str) -> bytes:
    return base64.b64decode(text, validate=True)


def base58_encode(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = ALPHABET[r] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def base58_decode(text: str) -> bytes:
    n = 0
    for ch in text:
        index = ALPHABET.find(ch)
        if index < 0:
            raise ValueError(f"{ch!r} is not base58")
        n = n * 58 + index
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return b"\0" * (len(text) - len(text.lstrip("1"))) + body


def crc16_xmodem(data: bytes) -> int:
    """Polynomial 0x1021, initial 0, no reflection, no final xor."""
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def account_id(public_key: bytes) -> str:
    """The account id of a 32-byte Ed25519 public key (it begins with `A`)."""
    if len(public_key) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    body = bytes([ACCOUNT_VERSION]) + public_key
    return base58_encode(body + crc16_xmodem(body).to_bytes(2, "little"))


def public_key_of_account(text: str) -> bytes:
    """Parses an account id: 35 bytes, version byte 0x5b, checksum; returns the public key."""
    raw = base58_decode(text)
    if len(raw) != 35:
        raise ValueError("an account id is 35 bytes")
    if raw[0] != ACCOUNT_VERSION:
        raise ValueError("not an account id: version byte")
    if int.from_bytes(raw[33:], "little") != crc16_xmodem(raw[:33]):
        raise ValueError("not an account id: checksum")
    return raw[1:33]
