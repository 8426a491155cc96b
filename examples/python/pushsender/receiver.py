"""The device side (PROTOCOL §5): open a push from its data keys — FCM `data`, the APNs top-level
keys, or the JSON inside a decrypted Web Push record."""
from cryptography.exceptions import InvalidTag
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from .encoding import public_key_of_account, unb64
from .sealing import open_sealed


class OpenError(Exception):
    """The push does not open: `reason` is missing_field, bad_base64, unknown_key, bad_signature or
    does_not_open."""

    def __init__(self, reason, message):
        super().__init__(f"{reason}: {message}")
        self.reason = reason


def open_push(data: dict, payload_keys: dict, sender: str):
    """The plaintext bytes of a push, or None for a push without payload (a wake or a clear).

    `payload_keys` maps keyId → 32-byte payload key (keep old keys: a late push carries an old
    keyId); `sender` is the account id whose key must have signed the sealed bytes — for an app,
    its chat server's account. The signature is checked before anything is decrypted."""
    if "x-any-payload" not in data:
        return None
    for name in ("x-any-key-id", "x-any-signature"):
        if name not in data:
            raise OpenError("missing_field", f"{name} is missing")
    try:
        sealed, signature = unb64(data["x-any-payload"]), unb64(data["x-any-signature"])
    except ValueError:
        raise OpenError("bad_base64", "x-any-payload or x-any-signature is not standard base64") from None
    key = payload_keys.get(data["x-any-key-id"].lower())
    if key is None:
        raise OpenError("unknown_key", "no payload key for " + data["x-any-key-id"])
    try:
        VerifyKey(public_key_of_account(sender)).verify(sealed, signature)
    except (BadSignatureError, ValueError):
        raise OpenError("bad_signature", "x-any-signature is not the sender's") from None
    try:
        return open_sealed(key, sealed)
    except (InvalidTag, ValueError):
        raise OpenError("does_not_open", "the payload does not open with this key") from None
