"""Web Push endpoints (RFC 8030 + RFC 8291 bodies + RFC 8292 VAPID), answering like
autopush/FCM-web do. Raw bodies are kept so tests can decrypt them with http_ece."""

import base64
import re
import time
import uuid

import jwt
from cryptography.hazmat.primitives.asymmetric import ec

from mock_http import Response, json_response

URGENCIES = {"very-low", "low", "normal", "high"}
TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
ERRNO = {400: 110, 401: 109, 403: 109, 404: 102, 410: 106, 413: 104, 429: 999, 500: 999, 503: 201}
TEXT = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
        413: "Payload Too Large", 429: "Too Many Requests", 500: "Internal Server Error",
        503: "Service Unavailable"}
# Subscription ids with these prefixes always answer so (handy without the control API).
PREFIXES = {"gone-": 410, "notfound-": 404, "busy-": 429, "down-": 503}
HANG_MS = 3600 * 1000


def push_error(status, message, headers=None, **kwargs):
    return json_response(status, {"code": status, "errno": ERRNO.get(status, 999), "error": TEXT.get(status, "Error"),
                                  "message": message, "more_info": "http://autopush.readthedocs.io/en/latest/http.html"
                                                                   "#error-codes"}, headers, **kwargs)


def _b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class WebPush:
    def __init__(self, state, vapid_key=None):
        self.state = state
        self.verified = {}  # (jwt, k) -> (aud, exp)
        # The applicationServerKey every subscription here was made with (base64url), or None:
        # a push signed with another key is refused as autopush does.
        self.vapid_key = vapid_key

    def send(self, request, subscription):
        response = self._answer(request, subscription)
        response.record = self.state.remember("webpush", subscription, request, response.status)
        return response

    def _answer(self, request, subscription):
        if request.method != "POST":
            return push_error(405, "Method not allowed")
        problem = self._check_vapid(request)
        if problem:
            return problem
        if request.header("ttl") is None or not request.header("ttl").isdigit():
            return push_error(400, "Missing TTL header")
        encoding = request.header("content-encoding")
        if request.body and encoding != "aes128gcm":
            return push_error(400, "Unknown Content-Encoding")
        urgency = request.header("urgency")
        if urgency is not None and urgency not in URGENCIES:
            return push_error(400, "Invalid Urgency header")
        topic = request.header("topic")
        if topic is not None and not TOPIC.match(topic):
            return push_error(400, "Topic must be at most 32 URL-safe base64 characters")
        if len(request.body) > 4096:
            return push_error(413, "This message is intended for a constrained device and is limited in size. "
                                   "Converted buffer is too long by %d bytes" % (len(request.body) - 4096))
        entry = self.state.scripted("webpush", subscription) or _prefix_entry(subscription)
        if entry:
            scripted = self.scripted(entry)
            if scripted is not None:
                return scripted
        location = f"{request.origin}/m/{uuid.uuid4().hex}"
        return Response(201, [("location", location), ("ttl", request.header("ttl"))], b"",
                        delay_ms=int((entry or {}).get("delayMs", 0)))

    def _check_vapid(self, request):
        authorization = request.header("authorization")
        if not authorization:
            return push_error(401, "Missing Authorization Header")
        scheme, _, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            return push_error(401, "Invalid Authorization Header: expected vapid t=..., k=...")
        fields = {}
        for part in params.split(","):
            key, _, value = part.strip().partition("=")
            fields[key.strip()] = value.strip()
        token, key = fields.get("t"), fields.get("k")
        if not token or not key:
            return push_error(401, "Invalid Authorization Header: missing t or k")
        if self.vapid_key is not None and key.rstrip("=") != self.vapid_key.rstrip("="):
            return push_error(401, "VAPID public key mismatch")
        cached = self.verified.get((token, key))
        if cached is None:
            try:
                public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _b64url_decode(key))
                if jwt.get_unverified_header(token).get("alg") != "ES256":
                    return push_error(401, "Invalid VAPID token: alg must be ES256")
                claims = jwt.decode(token, public, algorithms=["ES256"],
                                    options={"verify_aud": False, "verify_exp": False, "require": ["aud", "exp"]})
            except (ValueError, jwt.InvalidTokenError):
                return push_error(401, "Invalid VAPID token: signature does not verify")
            sub = claims.get("sub")
            if not isinstance(sub, str) or not sub.startswith(("mailto:", "https:")):
                return push_error(401, "Invalid VAPID token: sub must be a mailto: or https: URL")
            cached = (claims["aud"], claims["exp"])
            if len(self.verified) > 10_000:
                self.verified.clear()
            self.verified[(token, key)] = cached
        aud, exp = cached
        if aud != request.origin:
            return push_error(403, f"Invalid VAPID token: aud must be {request.origin}")
        now = time.time()
        if not isinstance(exp, (int, float)) or exp <= now:
            return push_error(401, "Invalid VAPID token: expired")
        if exp > now + 24 * 3600 + 60:
            return push_error(401, "Invalid VAPID token: exp more than 24 hours ahead")
        return None

    @staticmethod
    def scripted(entry):
        delay = int(entry.get("delayMs", 0))
        if entry.get("action"):
            return Response(201, action=entry["action"], delay_ms=delay)
        status = entry.get("status")
        if status is None:
            return None
        if status < 300:
            return Response(status, [("location", "/m/" + uuid.uuid4().hex)], delay_ms=delay)
        headers = []
        if "retryAfter" in entry:
            headers.append(("retry-after", str(entry["retryAfter"])))
        return push_error(status, entry.get("reason") or entry.get("error") or TEXT.get(status, "Error"), headers,
                          delay_ms=delay)


def _prefix_entry(subscription):
    if subscription.startswith("hang-"):  # a push service that takes the stream and never answers
        return {"delayMs": HANG_MS}
    for prefix, status in PREFIXES.items():
        if subscription.startswith(prefix):
            entry = {"status": status}
            if status == 429:
                entry["retryAfter"] = 30
            return entry
    return None
