"""A minimal independent PROTOCOL §1–§4 client for the integration tests: accounts and space keys
from seeds (PyNaCl), topic/space/message signatures, and requests signed per PROTOCOL §2 with
`pushnode_signatures.sign_with_library` (the http-message-signatures library)."""
import base64
import hashlib
import json
import os

from nacl.signing import SigningKey

from pushnode_signatures import account_id, base58, sign_with_library


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def registration_id(platform, app_id, environment, token) -> str:
    """PROTOCOL §3: hex of the first 16 bytes of SHA-256(platform ‖ 0 ‖ appId ‖ 0 ‖ environment ‖ 0 ‖ token)."""
    data = b"\0".join(part.encode() for part in (platform, app_id, environment, token))
    return hashlib.sha256(data).digest()[:16].hex()


class Space:
    """A space push key: signs topics and account ids."""

    def __init__(self, seed=None):
        self.key = SigningKey(seed or os.urandom(32))
        self.space_key = base58(bytes(self.key.verify_key))

    def sign(self, data: bytes) -> bytes:
        return self.key.sign(data).signature

    def topic(self, name: str, signature=None) -> dict:
        sig = signature if signature is not None else self.sign(name.encode())
        return {"spaceKey": self.space_key, "topic": name, "signature": b64(sig)}

    def ref(self, name: str) -> dict:
        return {"spaceKey": self.space_key, "topic": name}

    def proof(self, account: "Account") -> dict:
        """The body of POST /v1/spaces: the space key signs the caller's account id."""
        return {"spaceKey": self.space_key, "signature": b64(self.sign(account.id.encode()))}


class Account:
    """An account key that signs requests and messages."""

    def __init__(self, seed=None):
        self.seed = seed or os.urandom(32)
        self.key = SigningKey(self.seed)
        self.id = account_id(bytes(self.key.verify_key))

    def headers(self, method, path, body=b"", query=None, created=None, nonce=None):
        _, headers = sign_with_library(self.seed, method, path, query, body, created=created,
                                       nonce=nonce or os.urandom(12).hex())
        return headers

    def call(self, node, method, path, body=None, raw=None, **sign):
        """Signs and sends; `body` is JSON-encoded, `raw` bytes are sent as they are."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
        headers = self.headers(method, path, data, **sign)
        if data:
            headers["Content-Type"] = "application/json"
        status, response_headers, answer = node.request(method, path, headers=headers, body=data)
        try:
            parsed = json.loads(answer) if answer else None
        except ValueError:
            parsed = answer
        return status, parsed, response_headers

    def message(self, payload=None, key_id=None, signature=None) -> dict:
        payload = payload if payload is not None else os.urandom(64)
        sig = signature if signature is not None else self.key.sign(payload).signature
        return {"keyId": key_id or hashlib.sha256(b"payload key").hexdigest(), "payload": b64(payload),
                "signature": b64(sig)}

    def notify(self, topics, **extra) -> dict:
        body = {"topics": topics, "message": self.message()}
        body.update(extra)
        return body


def webpush_keys():
    """A valid p256dh (uncompressed point on P-256) and 16-byte auth, base64url."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives import serialization
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point), b64url(os.urandom(16))


def local_endpoint():
    """An endpoint on a closed loopback port: the delivery engine's attempt is refused (transient)
    and nothing leaves the machine. Needs `webpush.allowPrivateEndpoints`."""
    return f"http://127.0.0.1:1/push/{os.urandom(8).hex()}"


# Nodes whose outbox the tests read: private endpoints admitted, and a refused first attempt is
# not retried while the test runs.
LOCAL_DELIVERY = {"PUSHNODE_WEBPUSH_ALLOW_PRIVATE_ENDPOINTS": "true", "PUSHNODE_DELIVERY_INITIAL_BACKOFF": "10m"}


def database(node):
    """The SQLite file of a node's embedded store."""
    return os.path.join(node.data_dir, "pushnode.sqlite")


def queued_deliveries(db):
    """Every delivery a SQLite store still holds, as (notification id, registration id, provider,
    state) rows: outbox rows (state 0 queued, 1 claimed) and the ids of the recipient chunks no claim
    has expanded yet (state None). `db` is an open sqlite3 connection. Both reads see one snapshot:
    a live node's claim may expand a chunk into outbox rows between two separate reads."""
    in_transaction = db.in_transaction
    if not in_transaction:
        db.execute("BEGIN")
    try:
        rows = db.execute("SELECT n.id, o.registration, o.provider, o.state FROM outbox o "
                          "JOIN notifications n ON n.seq = o.notification").fetchall()
        for notification, registrations, provider in db.execute(
                "SELECT n.id, c.registrations, c.provider FROM recipient_chunks c "
                "JOIN notifications n ON n.seq = c.notification").fetchall():
            rows += [(notification, registration, provider, None) for registration in registrations.split(",")]
    finally:
        if not in_transaction:
            db.execute("COMMIT")
    return rows


def webpush_token(device_id, endpoint=None, **extra) -> dict:
    p256dh, auth = webpush_keys()
    body = {"deviceId": device_id, "platform": "webpush",
            "token": endpoint or local_endpoint(), "p256dh": p256dh, "auth": auth}
    body.update(extra)
    return body
