"""FCM HTTP v1 and its Google OAuth token endpoint, answering like Google does."""

import json
import re
import secrets
import time
from urllib.parse import parse_qs

import jwt

from mock_http import json_response

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
FCM_ERROR_TYPE = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
BAD_REQUEST_TYPE = "type.googleapis.com/google.rpc.BadRequest"

# errorCode -> (HTTP status, google.rpc status, message)
ERRORS = {
    "UNREGISTERED": (404, "NOT_FOUND", "Requested entity was not found."),
    "INVALID_ARGUMENT": (400, "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token"),
    "SENDER_ID_MISMATCH": (403, "PERMISSION_DENIED", "SenderId mismatch"),
    "QUOTA_EXCEEDED": (429, "RESOURCE_EXHAUSTED",
                       "Quota exceeded for quota metric 'Send requests' and limit 'Send requests per minute'"),
    "UNAVAILABLE": (503, "UNAVAILABLE", "The service is currently unavailable."),
    "INTERNAL": (500, "INTERNAL", "Internal error encountered."),
    "THIRD_PARTY_AUTH_ERROR": (401, "UNAUTHENTICATED", "Auth error from APNS or Web Push Service"),
}
# Token prefixes that behave like a scripted answer forever (handy without the control API).
PREFIXES = {
    "unregistered-": "UNREGISTERED",
    "invalid-": "INVALID_ARGUMENT",
    "mismatch-": "SENDER_ID_MISMATCH",
    "quota-": "QUOTA_EXCEEDED",
    "unavailable-": "UNAVAILABLE",
    "internal-": "INTERNAL",
    "thirdpartyauth-": "THIRD_PARTY_AUTH_ERROR",
}
MESSAGE_FIELDS = {"name", "data", "notification", "android", "webpush", "apns", "fcm_options", "token", "topic",
                  "condition"}
DURATION = re.compile(r"^\d+(\.\d{1,9})?s$")
RESERVED_DATA_KEYS = {"from", "notification", "message_type"}


def google_error(status, rpc_status, message, error_code=None, violations=None, headers=None, **kwargs):
    details = []
    if error_code:
        details.append({"@type": FCM_ERROR_TYPE, "errorCode": error_code})
    if violations:
        details.append({"@type": BAD_REQUEST_TYPE,
                        "fieldViolations": [{"field": f, "description": d} for f, d in violations]})
    error = {"code": status, "message": message, "status": rpc_status}
    if details:
        error["details"] = details
    return json_response(status, {"error": error}, headers, **kwargs)


def bad_request(message, violations=None):
    return google_error(400, "INVALID_ARGUMENT", message, "INVALID_ARGUMENT", violations)


class FCM:
    def __init__(self, state, credentials, token_ttl):
        self.state = state
        self.credentials = credentials
        self.token_ttl = token_ttl
        self.access_tokens = {}  # token -> (expires_at, minted_at)
        self.token_uri = None
        self.verified_assertions = {}

    # OAuth 2.0 token endpoint (RFC 7523 JWT bearer grant)

    def token(self, request):
        self.state.remember("token", None, request, 0)
        form = {k: v[0] for k, v in parse_qs(request.body.decode("utf-8", "replace")).items()}
        if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            return json_response(400, {"error": "unsupported_grant_type", "error_description": "Invalid grant_type: "
                                       + form.get("grant_type", "")})
        assertion = form.get("assertion", "")
        try:
            header = jwt.get_unverified_header(assertion)
            if header.get("alg") != "RS256":
                raise jwt.InvalidTokenError("alg")
            claims = jwt.decode(assertion, self.credentials.sa_public_key, algorithms=["RS256"],
                                audience=self.token_uri, leeway=60,
                                options={"require": ["iss", "aud", "iat", "exp"]})
        except jwt.InvalidTokenError as error:
            return json_response(400, {"error": "invalid_grant", "error_description": _grant_error(error)})
        if claims["iss"] != self.credentials.client_email or self.state.keys_revoked:
            return json_response(400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
        if claims["exp"] - claims["iat"] > 3600:
            return json_response(400, {"error": "invalid_grant",
                                       "error_description": "Invalid JWT: Token must be a short-lived token (60 "
                                                            "minutes) and in a reasonable timeframe."})
        if SCOPE not in str(claims.get("scope", "")).split():
            return json_response(400, {"error": "invalid_scope",
                                       "error_description": "Invalid OAuth scope or ID token audience provided."})
        access_token = "ya29.mock." + secrets.token_urlsafe(48)
        now = time.time()
        self.access_tokens[access_token] = (now + self.token_ttl, now)
        self.state.token_mints += 1
        return json_response(200, {"access_token": access_token, "expires_in": int(self.token_ttl),
                                   "token_type": "Bearer"})

    # messages:send

    def send(self, request, project):
        if request.method != "POST":
            return google_error(405, "INVALID_ARGUMENT", "Method not allowed")
        auth = request.header("authorization") or ""
        token_state = self.access_tokens.get(auth[7:]) if auth[:7].lower() == "bearer " else None
        now = time.time()
        if token_state is None or token_state[0] <= now or token_state[1] < self.state.revoked_before:
            response = google_error(
                401, "UNAUTHENTICATED",
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
                "other valid authentication credential. See "
                "https://developers.google.com/identity/sign-in/web/devconsole-project.",
                headers=[("www-authenticate", 'Bearer realm="https://accounts.google.com/", error="invalid_token"')])
            return self._remember(request, None, response)
        if project != self.credentials.project_id:
            response = google_error(403, "PERMISSION_DENIED",
                                    f"Permission 'cloudmessaging.messages.create' denied on resource "
                                    f"'//cloudresourcemanager.googleapis.com/projects/{project}' (or it may not "
                                    f"exist).")
            return self._remember(request, None, response)
        try:
            document = json.loads(request.body)
        except ValueError:
            return self._remember(request, None, bad_request(
                "Invalid JSON payload received. Unexpected token."))
        message = document.get("message") if isinstance(document, dict) else None
        token = message.get("token") if isinstance(message, dict) else None
        problem = self.validate(document)
        if problem is not None:
            return self._remember(request, token, problem)
        entry = self.state.scripted("fcm", token) or self._prefix_entry(token)
        response = self.scripted(entry) if entry else None
        if response is None:
            name = f"projects/{project}/messages/0:{int(now * 1000)}%{secrets.token_hex(8)}"
            response = json_response(200, {"name": name}, delay_ms=int((entry or {}).get("delayMs", 0)))
        return self._remember(request, token, response)

    def _remember(self, request, token, response):
        response.record = self.state.remember("fcm", token, request, response.status)
        return response

    @staticmethod
    def _prefix_entry(token):
        if not isinstance(token, str):
            return None
        for prefix, code in PREFIXES.items():
            if token.startswith(prefix):
                return {"error": code}
        if token.startswith("slow-"):
            return {"delayMs": int(token.split("-")[1])}
        return None

    def scripted(self, entry):
        """The response a script entry asks for, or None for a normal answer."""
        delay = int(entry.get("delayMs", 0))
        if entry.get("action"):
            return json_response(200, {}, action=entry["action"], delay_ms=delay)
        code = entry.get("error") or entry.get("reason")
        status = entry.get("status")
        if code is None and status is None:
            return None
        if code is None:
            code = {404: "UNREGISTERED", 400: "INVALID_ARGUMENT", 403: "SENDER_ID_MISMATCH", 429: "QUOTA_EXCEEDED",
                    503: "UNAVAILABLE", 500: "INTERNAL", 401: "THIRD_PARTY_AUTH_ERROR"}.get(status)
        default_status, rpc_status, message = ERRORS.get(code, (status or 500, "UNKNOWN", code or "error"))
        headers = [("retry-after", str(entry["retryAfter"]))] if "retryAfter" in entry else []
        if status is not None and status < 300:
            return json_response(status, entry.get("json", {}), headers, delay_ms=delay)
        violations = [("message.token", "Invalid registration token")] if code == "INVALID_ARGUMENT" else None
        return google_error(status or default_status, rpc_status, entry.get("message", message), code, violations,
                            headers, delay_ms=delay)

    @staticmethod
    def validate(document):
        """A Google-style 400 for a malformed request, or None."""
        if not isinstance(document, dict) or not isinstance(document.get("message"), dict):
            return bad_request("Request contains an invalid argument.")
        for key in document:
            if key not in ("message", "validate_only"):
                return bad_request(f'Invalid JSON payload received. Unknown name "{key}": Cannot find field.')
        message = document["message"]
        for key in message:
            if key not in MESSAGE_FIELDS:
                return bad_request(f'Invalid JSON payload received. Unknown name "{key}" at \'message\': '
                                   f'Cannot find field.', [("message", f'Invalid JSON payload received. Unknown '
                                                                       f'name "{key}" at \'message\'')])
        targets = [k for k in ("token", "topic", "condition") if k in message]
        if len(targets) != 1:
            return bad_request("Recipient of the message is not set." if not targets else
                               "Request contains an invalid argument.",
                               [("message", "Exactly one of token, topic or condition must be set")])
        if "token" in message and (not isinstance(message["token"], str) or not message["token"]):
            return bad_request("The registration token is not a valid FCM registration token",
                               [("message.token", "Invalid registration token")])
        data = message.get("data", {})
        if not isinstance(data, dict):
            return bad_request("Invalid value at 'message.data' (type.googleapis.com/google.firebase.fcm.v1."
                               "Message.DataEntry), " + json.dumps(data))
        size = 0
        for index, (key, value) in enumerate(data.items()):
            if not isinstance(value, str):
                return bad_request(f"Invalid value at 'message.data[{index}].value' (TYPE_STRING), "
                                   f"{json.dumps(value)}",
                                   [(f"message.data[{index}].value",
                                     f"Invalid value at 'message.data[{index}].value' (TYPE_STRING), "
                                     f"{json.dumps(value)}")])
            if key in RESERVED_DATA_KEYS or key.startswith(("google.", "gcm.")):
                return bad_request(f"Invalid data payload key: {key}")
            size += len(key.encode()) + len(value.encode())
        if size > 4096:
            return bad_request("Android message is too big")
        android = message.get("android")
        if android is not None:
            if not isinstance(android, dict):
                return bad_request("Invalid value at 'message.android'")
            if "ttl" in android and not (isinstance(android["ttl"], str) and DURATION.match(android["ttl"])):
                return bad_request(f"Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf."
                                   f"Duration), {json.dumps(android['ttl'])}")
            if "priority" in android and str(android["priority"]).upper() not in ("NORMAL", "HIGH"):
                return bad_request(f"Invalid value at 'message.android.priority' (type.googleapis.com/google."
                                   f"firebase.fcm.v1.AndroidMessagePriority), {json.dumps(android['priority'])}")
        apns = message.get("apns")
        if apns is not None:
            if not isinstance(apns, dict) or not isinstance(apns.get("headers", {}), dict):
                return bad_request("Invalid value at 'message.apns'")
            if any(not isinstance(v, str) for v in apns.get("headers", {}).values()):
                return bad_request("Invalid value at 'message.apns.headers' (TYPE_STRING)")
            if "payload" in apns and not isinstance(apns["payload"], dict):
                return bad_request("Invalid value at 'message.apns.payload' (type.googleapis.com/google.protobuf."
                                   "Struct)")
        return None


def _grant_error(error):
    if isinstance(error, jwt.ExpiredSignatureError):
        return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check " \
               "your iat and exp values in the JWT claim."
    if isinstance(error, jwt.InvalidAudienceError):
        return "Invalid JWT: Failed audience check."
    return "Invalid JWT Signature."
