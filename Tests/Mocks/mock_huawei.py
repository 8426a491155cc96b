"""Huawei Push Kit as Huawei documents it (Spec/providers.md "Huawei Push Kit"): the OAuth 2.0
client-credentials token endpoint, HMS Core Push Kit v1 (`huawei`) and HarmonyOS Push Kit v3
(`harmony`, a PS256 service-account JWT checked with the account's public key).

Both send routes answer `{"code", "msg", "requestId"}` with Huawei's result codes: 80000000
success; 80100000 partial success (some tokens refused, named in `msg`: v1 `illegal_tokens`,
v3 `illegalTokens` by reason); 80300007 every token refused; 80200001 / 80200003 (v1 OAuth) and
80200001 / 80200005 (v3 JWT) refused credentials; 80300008 body over 4096 bytes without the
tokens; 80300010 token count; 80100001 / 80100003 request or payload errors; HTTP 503 for flow
control. Token prefix `invalid-`: refused (tokenFormatError). Scripts
(provider "huawei" or "harmony") take entries {"code", "status", "msg", "retryAfter"}.
"""

import json
import re
import secrets
import time
from urllib.parse import parse_qs

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from mock_credentials import _write
from mock_http import Response, json_response

AUDIENCE = "https://oauth-login.cloud.huawei.com/oauth2/v3/token"
BODY_LIMIT = 4096
MAX_TTL = 1_296_000
PUSH_TYPES = {0, 1, 2, 6, 7, 10}
V1_CATEGORIES = {"VOIP", "PLAY_VOICE"}
DURATION = re.compile(r"^\d+(\.\d{1,9})?s$")
HUAWEI_SEND = re.compile(r"^/v1/([^/]+)/messages:send$")
HARMONY_SEND = re.compile(r"^/v3/([^/]+)/messages:send$")
TOKEN_PATH = "/oauth2/v3/token"


def _json(body):
    try:
        return json.loads(body)
    except ValueError:
        return None


def _first(tokens):
    """The first token of a request, by which it is recorded and scripted."""
    return tokens[0] if isinstance(tokens, list) and tokens and isinstance(tokens[0], str) else None


def answer(code, msg, status=200, headers=None, **kwargs):
    return json_response(status, {"code": code, "msg": msg, "requestId": secrets.token_hex(12)}, headers, **kwargs)


class PushKitMock:
    """Both Push Kit APIs and their credentials, generated into `directory`."""

    def __init__(self, state, directory, token_ttl):
        self.state = state
        self.token_ttl = token_ttl
        self.app_id = "10086" + str(secrets.randbelow(10 ** 6))
        self.client_secret = secrets.token_hex(32)
        self.access_tokens = {}  # token -> (expires_at, minted_at)
        self.project_id = "3884218412221" + str(secrets.randbelow(10 ** 6))
        self.key_id = secrets.token_hex(16)
        self.sub_account = str(10 ** 9 + secrets.randbelow(10 ** 9))
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.public_key = self.key.public_key()
        self.service_account_file = f"{directory}/harmony-service-account.json"
        pem = self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()).decode()
        _write(self.service_account_file, json.dumps({
            "project_id": self.project_id, "key_id": self.key_id, "private_key": pem,
            "sub_account": self.sub_account, "auth_uri": "https://oauth-login.cloud.huawei.com/oauth2/v3/authorize",
            "token_uri": AUDIENCE, "auth_provider_cert_uri": "https://oauth-login.cloud.huawei.com/oauth2/v3/certs",
            "client_cert_uri": "https://oauth-login.cloud.huawei.com/oauth2/v3/x509?client_id="}).encode())

    # OAuth 2.0 client credentials (v1)

    def token(self, request):
        self.state.remember("huawei-token", None, request, 0)
        form = {k: v[0] for k, v in parse_qs(request.body.decode("utf-8", "replace")).items()}
        if form.get("grant_type") != "client_credentials":
            return json_response(400, {"error": 1102, "sub_error": 20001, "error_description": "grant_type invalid"})
        if form.get("client_id") != self.app_id or form.get("client_secret") != self.client_secret \
                or self.state.keys_revoked:
            return json_response(400, {"error": 1101, "sub_error": 20003, "error_description": "invalid client"})
        token = "CgB6e3x9" + secrets.token_urlsafe(48)
        now = time.time()
        self.access_tokens[token] = (now + self.token_ttl, now)
        self.state.huawei_token_mints += 1
        return json_response(200, {"access_token": token, "expires_in": int(self.token_ttl), "token_type": "Bearer"})

    # HMS Core Push Kit v1

    def send_v1(self, request, app_id):
        document = _json(request.body)
        message = document.get("message") if isinstance(document, dict) else None
        tokens = message.get("token") if isinstance(message, dict) else None
        first = _first(tokens)
        auth = request.header("authorization") or ""
        minted = self.access_tokens.get(auth[7:]) if auth[:7].lower() == "bearer " else None
        if minted is None or app_id != self.app_id:
            return self._remember("huawei", request, first, answer("80200001", "Oauth authentication error", 401))
        if minted[0] <= time.time() or minted[1] < self.state.revoked_before:
            return self._remember("huawei", request, first, answer("80200003", "Oauth Token expired", 401))
        if document is None:
            return self._remember("huawei", request, None, answer("80100001", "Some request parameters are incorrect", 400))
        problem = self._validate_v1(document)
        if problem is None:
            problem = self._size(request.body, tokens)
        if problem is not None:
            return self._remember("huawei", request, first, problem)
        return self._remember("huawei", request, first, self._deliver("huawei", tokens, v3=False))

    @staticmethod
    def _validate_v1(document):
        if not isinstance(document, dict) or set(document) - {"validate_only", "message"}:
            return answer("80100001", "Some request parameters are incorrect", 400)
        if not isinstance(document.get("validate_only", False), bool):
            return answer("80100001", "validate_only must be a boolean", 400)
        message = document.get("message")
        if not isinstance(message, dict):
            return answer("80100003", "Incorrect message structure", 400)
        tokens = message.get("token")
        if not isinstance(tokens, list) or not 1 <= len(tokens) <= 1000 or not all(isinstance(t, str) and t for t in tokens):
            return answer("80300010", "The number of tokens in the message body exceeds the default value", 400)
        if "data" in message and not isinstance(message["data"], str):
            return answer("80100003", "Incorrect message structure: data must be a string", 400)
        android = message.get("android", {})
        if not isinstance(android, dict):
            return answer("80100003", "Incorrect message structure", 400)
        if "notification" not in message and "notification" not in android and "data" not in message \
                and "data" not in android:
            return answer("80100003", "Incorrect message structure: neither data nor notification", 400)
        if "urgency" in android and android["urgency"] not in ("HIGH", "NORMAL"):
            return answer("80100001", "urgency must be HIGH or NORMAL", 400)
        if "category" in android and android["category"] not in V1_CATEGORIES:
            return answer("80100001", "category is invalid", 400)
        if "ttl" in android and not (isinstance(android["ttl"], str) and DURATION.match(android["ttl"])
                                     and float(android["ttl"][:-1]) <= MAX_TTL):
            return answer("80100001", "ttl is invalid", 400)
        key = android.get("collapse_key", -1)
        if not isinstance(key, int) or isinstance(key, bool) or not -1 <= key <= 100:
            return answer("80100001", "collapse_key must be an integer from -1 to 100", 400)
        return None

    # HarmonyOS Push Kit v3

    def send_v3(self, request, project_id):
        document = _json(request.body)
        target = document.get("target") if isinstance(document, dict) else None
        tokens = target.get("token") if isinstance(target, dict) else None
        first = _first(tokens)
        problem = self._check_jwt(request.header("authorization") or "")
        if problem is None and project_id != self.project_id:
            problem = answer("80200001", "Authentication Error.", 401)
        if problem is None and document is None:
            problem = answer("80100001", "Check Parameter Error.", 400)
        if problem is None:
            problem = self._validate_v3(request.header("push-type"), document)
        if problem is None:
            problem = self._size(request.body, tokens)
        if problem is not None:
            return self._remember("harmony", request, first, problem)
        return self._remember("harmony", request, first, self._deliver("harmony", tokens, v3=True))

    def _check_jwt(self, authorization):
        if authorization[:7].lower() != "bearer " or not authorization[7:]:
            return answer("80200001", "Authentication Error.", 401)
        token = authorization[7:]
        try:
            header = jwt.get_unverified_header(token)
            if header.get("alg") != "PS256" or header.get("kid") != self.key_id or self.state.keys_revoked:
                raise jwt.InvalidTokenError("header")
            claims = jwt.decode(token, self.public_key, algorithms=["PS256"], audience=AUDIENCE,
                                options={"require": ["iss", "aud", "iat", "exp"]})
        except jwt.ExpiredSignatureError:
            return answer("80200005", "Jwt token expired.", 401)
        except jwt.InvalidTokenError:
            return answer("80200001", "Authentication Error.", 401)
        if claims["iss"] != self.sub_account:
            return answer("80200001", "Authentication Error.", 401)
        if claims["exp"] - claims["iat"] > 86_400:
            return answer("80300036", "JWT expire period over threshold.", 400)
        if claims["iat"] < self.state.revoked_before:
            return answer("80200001", "Authentication Error.", 401)
        return None

    @staticmethod
    def _validate_v3(push_type, document):
        if push_type is None or not push_type.isdigit() or int(push_type) not in PUSH_TYPES:
            return answer("80100001", "Check Parameter Error. push-type", 400)
        push_type = int(push_type)
        if not isinstance(document, dict) or set(document) - {"payload", "target", "pushOptions"}:
            return answer("80100001", "Check Parameter Error.", 400)
        tokens = (document.get("target") or {}).get("token") if isinstance(document.get("target"), dict) else None
        options = document.get("pushOptions", {})
        if not isinstance(options, dict):
            return answer("80100001", "Check Parameter Error. pushOptions", 400)
        limit = 10 if options.get("testMessage") is True else 1000
        if not isinstance(tokens, list) or not 1 <= len(tokens) <= limit or not all(isinstance(t, str) and t for t in tokens):
            return answer("80300010", f"token count should within 1 and {limit}.", 400)
        ttl = options.get("ttl", 86_400)
        if not isinstance(ttl, int) or isinstance(ttl, bool) or not 1 <= ttl <= MAX_TTL:
            return answer("80100001", "Check Parameter Error. ttl", 400)
        key = options.get("collapseKey", -1)
        if not isinstance(key, int) or isinstance(key, bool) or not -1 <= key <= 100:
            return answer("80100001", "Check Parameter Error. collapseKey", 400)
        if "testMessage" in options and not isinstance(options["testMessage"], bool):
            return answer("80100001", "Check Parameter Error. testMessage", 400)
        payload = document.get("payload")
        if not isinstance(payload, dict):
            return answer("80100003", "Illegal payload, payload is required", 400)
        if push_type == 0:
            notification = payload.get("notification")
            if not isinstance(notification, dict):
                return answer("80100003", "Illegal payload, notification is required", 400)
            for field in ("category", "title", "body"):
                if not isinstance(notification.get(field), str) or not notification[field]:
                    return answer("80100003", f"Illegal payload, {field} is required", 400)
            action = notification.get("clickAction")
            if not isinstance(action, dict) or action.get("actionType") not in (0, 1, 3):
                return answer("80100003", "Illegal payload, clickAction.actionType is invalid", 400)
            if "data" in action and not isinstance(action["data"], dict):
                return answer("80100003", "Illegal payload, clickAction.data must be an object", 400)
        elif push_type in (6, 10):
            if not isinstance(payload.get("extraData"), str) or not payload["extraData"]:
                return answer("80100003", "Illegal payload, extraData is required", 400)
        return None

    # shared

    @staticmethod
    def _size(body, tokens):
        size = len(body) - sum(len(t.encode()) for t in tokens or [] if isinstance(t, str))
        if size > BODY_LIMIT:
            return answer("80300008", "Push message size is too long", 400)
        return None

    def _deliver(self, provider, tokens, v3):
        """The answer for a valid request: a script for its first token, else Huawei's own rules."""
        entry = self.state.scripted(provider, tokens[0])
        if entry is not None and ("code" in entry or "status" in entry):
            headers = [("retry-after", str(entry["retryAfter"]))] if "retryAfter" in entry else []
            status = entry.get("status", 200)
            if "code" not in entry:
                return Response(status, headers, b"", delay_ms=int(entry.get("delayMs", 0)))
            return answer(entry["code"], entry.get("msg", ""), status, headers, delay_ms=int(entry.get("delayMs", 0)))
        refused = [t for t in tokens if t.startswith("invalid-")]
        if not refused:
            return answer("80000000", "Success")
        detail = {"success": len(tokens) - len(refused), "failure": len(refused)}
        detail.update({"illegalTokens": {"tokenFormatError": refused}} if v3 else {"illegal_tokens": refused})
        if len(refused) == len(tokens):
            return answer("80300007", json.dumps(detail) if v3 else "All the tokens are invalid", 400)
        return answer("80100000", json.dumps(detail))

    def _remember(self, provider, request, token, response):
        response.record = self.state.remember(provider, token, request, response.status)
        return response
