"""The node's HTTP API (PROTOCOL §3–§4) over urllib: every `/v1` call signed afresh."""
import json
import urllib.error
import urllib.request

from .encoding import b64
from .sealing import OVERHEAD, seal
from .signing import sign_request

KINDS = ("message", "silent", "call", "clear")


class NodeError(Exception):
    """A non-2xx answer: `status`, and the stable `code` and `field` of the error body."""

    def __init__(self, status, code, message, field=None):
        super().__init__(f"{status} {code}: {message}" + (f" ({field})" if field else ""))
        self.status, self.code, self.field = status, code, field


class Node:
    def __init__(self, base_url: str, account, timeout: float = 30):
        self.base_url = base_url.rstrip("/")
        self.account = account
        self.timeout = timeout

    def call(self, method: str, path: str, document=None, query=None):
        """One signed request; returns the decoded JSON answer, raises `NodeError` otherwise."""
        body = json.dumps(document, separators=(",", ":")).encode() if document is not None else b""
        headers = sign_request(self.account, method, path, query, body)
        if body:
            headers["Content-Type"] = "application/json"
        url = self.base_url + path + (f"?{query}" if query else "")
        request = urllib.request.Request(url, data=body or None, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                data = response.read()
        except urllib.error.HTTPError as error:
            answer = json.loads(error.read() or b"{}").get("error", {})
            raise NodeError(error.code, answer.get("code"), answer.get("message"), answer.get("field")) from None
        return json.loads(data) if data else {}

    def capabilities(self):
        """Unsigned: platforms, the VAPID key and `limits` (`maxPayloadBytes`, …)."""
        with urllib.request.urlopen(self.base_url + "/v1/capabilities", timeout=self.timeout) as response:
            return json.loads(response.read())

    def register_space(self, space):
        """`POST /v1/spaces`: optional unless the node sets `spaces.requireRegistration`; harmless twice."""
        return self.call("POST", "/v1/spaces", {"spaceKey": space.space_key,
                                                "signature": space.sign_registration(self.account.id)})

    def register_token(self, device_id: str, platform: str, token: str, **fields):
        """`POST /v1/tokens` (a device registering itself): returns the registration id."""
        return self.call("POST", "/v1/tokens", {"deviceId": device_id, "platform": platform, "token": token,
                                                **fields})["registrationId"]

    def subscribe(self, space, topics):
        """`POST /v1/subscriptions`: adds signed topics; returns how many the account holds."""
        return self.call("POST", "/v1/subscriptions", {"topics": [space.sign_topic(t) for t in topics]})["count"]

    def sealed_message(self, space, payload: bytes):
        """`message`: the payload sealed with the space's payload key, signed by the account key
        over the sealed bytes (Spec/crypto.md §4, §9)."""
        sealed = seal(space.payload_key, payload)
        return {"keyId": space.key_id, "payload": b64(sealed), "signature": b64(self.account.sign(sealed))}

    def notify(self, space, topics, payload: bytes = None, kind: str = "message", group_id=None, ttl=None,
               replaces=None, max_payload_bytes: int = 2685):
        """`POST /v1/notify`: `payload` (bytes, sealed as they are) or None for a content-free wake.

        `max_payload_bytes` bounds the sealed size: 2685 still reaches every provider once the
        node adds its data keys (the node itself takes up to `limits.maxPayloadBytes`, 2816)."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        document = {"topics": [space.sign_topic(t) for t in topics], "kind": kind}
        if payload is not None:
            if len(payload) + OVERHEAD > max_payload_bytes:
                raise ValueError(f"the payload seals to {len(payload) + OVERHEAD} bytes, over {max_payload_bytes}")
            document["message"] = self.sealed_message(space, payload)
        for name, value in (("groupId", group_id), ("ttl", ttl), ("replaces", replaces)):
            if value is not None:
                document[name] = value
        return self.call("POST", "/v1/notify", document)

    def notify_own_devices(self, space, payload: bytes = None, group_id=None, ttl=None, replaces=None, skip_device=None):
        """`POST /v1/notify/silent`: the caller's own devices (its account-id topic), silent."""
        document = {"topics": [space.sign_topic(self.account.id)]}
        if payload is not None:
            document["message"] = self.sealed_message(space, payload)
        for name, value in (("groupId", group_id), ("ttl", ttl), ("replaces", replaces), ("deviceId", skip_device)):
            if value is not None:
                document[name] = value
        return self.call("POST", "/v1/notify/silent", document)
