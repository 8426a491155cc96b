"""APNs (token-based auth) over HTTP/2 only, answering like Apple does."""

import re
import time
import uuid

import jwt

from mock_http import Response, json_response

PUSH_TYPES = {"alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity",
              "pushtotalk"}
HEX_TOKEN = re.compile(r"^[0-9a-fA-F]{64,200}$")
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
# reason -> HTTP status
REASONS = {
    "BadCollapseId": 400, "BadDeviceToken": 400, "BadExpirationDate": 400, "BadMessageId": 400, "BadPriority": 400,
    "BadTopic": 400, "DeviceTokenNotForTopic": 400, "DuplicateHeaders": 400, "IdleTimeout": 400,
    "InvalidPushType": 400, "MissingDeviceToken": 400, "MissingTopic": 400, "PayloadEmpty": 400,
    "TopicDisallowed": 400, "BadCertificate": 403, "BadCertificateEnvironment": 403, "ExpiredProviderToken": 403,
    "Forbidden": 403, "InvalidProviderToken": 403, "MissingProviderToken": 403, "UnrelatedKeyIdInToken": 403,
    "BadPath": 404, "MethodNotAllowed": 405, "ExpiredToken": 410, "Unregistered": 410, "PayloadTooLarge": 413,
    "TooManyProviderTokenUpdates": 429, "TooManyRequests": 429, "InternalServerError": 500,
    "ServiceUnavailable": 503, "Shutdown": 503,
}
STATUS_REASONS = {400: "BadDeviceToken", 403: "InvalidProviderToken", 410: "Unregistered", 413: "PayloadTooLarge",
                  429: "TooManyRequests", 500: "InternalServerError", 503: "ServiceUnavailable"}
# Hex token prefixes that always answer with a reason (handy without the control API).
PREFIXES = {"dead": "Unregistered", "bad0": "BadDeviceToken", "0bad": "DeviceTokenNotForTopic",
            "5555": "ServiceUnavailable", "4290": "TooManyRequests"}
SINGLE_HEADERS = ("apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id",
                  "authorization")


class APNs:
    def __init__(self, state, credentials, bundle_id=None, token_update_window=0.0):
        self.state = state
        self.credentials = credentials
        self.bundle_id = bundle_id
        self.verified = {}  # jwt -> iat, for tokens already checked
        # Apple: one provider token per key at a time, updated at most every 20 minutes; a new
        # token within the window is refused 429 TooManyProviderTokenUpdates (0 = not checked).
        self.token_update_window = token_update_window
        self.current_token = None  # (token, time it became the key's token)
        self.seen_tokens = set()  # every token of the key accepted so far: sending an older one is no update

    def send(self, request, token):
        apns_id = request.header("apns-id") or str(uuid.uuid4())
        response = self._answer(request, token, apns_id)
        response.headers.append(("apns-id", apns_id))
        response.record = self.state.remember("apns", token, request, response.status)
        return response

    def _answer(self, request, token, apns_id):
        if request.method != "POST":
            return reason("MethodNotAllowed")
        if not token:
            return reason("MissingDeviceToken")
        if any(request.header_count(name) > 1 for name in SINGLE_HEADERS):
            return reason("DuplicateHeaders")
        problem = self._check_provider_token(request.header("authorization"))
        if problem:
            return reason(problem)
        if not HEX_TOKEN.match(token):
            return reason("BadDeviceToken")
        if not UUID.match(apns_id):
            return reason("BadMessageId")
        topic = request.header("apns-topic")
        push_type = request.header("apns-push-type") or "alert"
        if not topic:
            return reason("MissingTopic")
        if push_type not in PUSH_TYPES:
            return reason("InvalidPushType")
        if (push_type == "voip") != topic.endswith(".voip"):
            return reason("DeviceTokenNotForTopic")
        if self.bundle_id and topic.split(".voip")[0] != self.bundle_id and topic != self.bundle_id:
            return reason("DeviceTokenNotForTopic")
        priority = request.header("apns-priority")
        if priority is not None and priority not in ("10", "5", "1"):
            return reason("BadPriority")
        if push_type == "background" and priority == "10":
            return reason("BadPriority")
        expiration = request.header("apns-expiration")
        if expiration is not None and not expiration.isdigit():
            return reason("BadExpirationDate")
        collapse_id = request.header("apns-collapse-id")
        if collapse_id is not None and len(collapse_id.encode()) > 64:
            return reason("BadCollapseId")
        if not request.body:
            return reason("PayloadEmpty")
        if len(request.body) > (5120 if push_type == "voip" else 4096):
            return reason("PayloadTooLarge")
        entry = self.state.scripted("apns", token) or _prefix_entry(token)
        if entry:
            scripted = self.scripted(entry)
            if scripted is not None:
                return scripted
        return Response(200, [], b"", delay_ms=int((entry or {}).get("delayMs", 0)))

    def _check_provider_token(self, authorization):
        if not authorization:
            return "MissingProviderToken"
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            return "MissingProviderToken"
        if self.state.keys_revoked:  # Apple refuses every JWT signed with a revoked key
            return "InvalidProviderToken"
        iat = self.verified.get(token)
        if iat is None:
            try:
                header = jwt.get_unverified_header(token)
                if header.get("alg") != "ES256":
                    return "InvalidProviderToken"
                if header.get("kid") != self.credentials.key_id:
                    return "InvalidProviderToken"
                claims = jwt.decode(token, self.credentials.apns_public_key, algorithms=["ES256"],
                                    options={"verify_exp": False, "verify_iat": False, "verify_aud": False,
                                             "require": ["iss", "iat"]})
            except jwt.InvalidTokenError:
                return "InvalidProviderToken"
            if claims["iss"] != self.credentials.team_id or not isinstance(claims["iat"], int):
                return "InvalidProviderToken"
            iat = claims["iat"]
            if len(self.verified) > 10_000:
                self.verified.clear()
            self.verified[token] = iat
        now = time.time()
        if iat > now + 60:
            return "InvalidProviderToken"
        if now - iat > 3600 or iat < self.state.revoked_before:
            return "ExpiredProviderToken"
        if self.token_update_window > 0 and token not in self.seen_tokens:
            if self.current_token is not None and now - self.current_token[1] < self.token_update_window:
                return "TooManyProviderTokenUpdates"
            self.current_token = (token, now)
            self.seen_tokens.add(token)
        return None

    def scripted(self, entry):
        delay = int(entry.get("delayMs", 0))
        if entry.get("action"):
            return Response(200, action=entry["action"], delay_ms=delay)
        name = entry.get("reason") or entry.get("error")
        status = entry.get("status")
        if name is None and status is None:
            return None
        if status is not None and status < 300:
            return Response(status, delay_ms=delay)
        name = name or STATUS_REASONS.get(status, "InternalServerError")
        response = reason(name, status, delay_ms=delay)
        if "retryAfter" in entry:
            response.headers.append(("retry-after", str(entry["retryAfter"])))
        return response


def reason(name, status=None, **kwargs):
    status = status or REASONS.get(name, 400)
    document = {"reason": name}
    if status == 410:
        document["timestamp"] = int(time.time() * 1000)
    return json_response(status, document, **kwargs)


def _prefix_entry(token):
    if token and set(token) == {"0"}:  # never issued by Apple: what `pushnode check --live` sends
        return {"reason": "BadDeviceToken"}
    for prefix, name in PREFIXES.items():
        if token.lower().startswith(prefix):
            return {"reason": name}
    return None

