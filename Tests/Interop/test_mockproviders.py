"""The mock providers answer like the vendors: checked with independent clients
(PyJWT, py_vapid, http_ece, requests, and the curl CLI for HTTP/2)."""
import base64
import json
import subprocess
import time
import uuid

import http_ece
import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from mockproviders_helper import MockProviders

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


@pytest.fixture(scope="module")
def mock(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("mock")) as providers:
        yield providers


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# FCM ---------------------------------------------------------------------------------

def service_account(mock):
    with open(mock.ready["serviceAccountFile"]) as f:
        return json.load(f)


def assertion(sa, **overrides):
    now = int(time.time())
    claims = {"iss": sa["client_email"], "scope": SCOPE, "aud": sa["token_uri"], "iat": now, "exp": now + 3600}
    claims.update(overrides)
    return jwt.encode(claims, sa["private_key"], algorithm="RS256", headers={"kid": sa["private_key_id"]})


def mint(mock, sa, jwt_text):
    return requests.post(sa["token_uri"], data={"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
                                                "assertion": jwt_text}, verify=mock.ready["caFile"], timeout=10)


def fcm_send(mock, access_token, message):
    sa_project = mock.ready["projectId"]
    return requests.post(f"{mock.https}/v1/projects/{sa_project}/messages:send", json={"message": message},
                         headers={"authorization": f"Bearer {access_token}"}, verify=mock.ready["caFile"], timeout=10)


@pytest.fixture(scope="module")
def access_token(mock):
    sa = service_account(mock)
    answer = mint(mock, sa, assertion(sa))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    return body["access_token"]


def test_service_account_is_complete_and_points_at_the_mock(mock):
    sa = service_account(mock)
    for key in ("type", "project_id", "private_key_id", "private_key", "client_email", "client_id", "token_uri"):
        assert sa[key]
    assert sa["type"] == "service_account"
    assert sa["token_uri"] == mock.https + "/token"


def test_token_endpoint_refuses_a_bad_assertion(mock):
    sa = service_account(mock)
    other_key = ec.generate_private_key(ec.SECP256R1())
    forged = jwt.encode({"iss": sa["client_email"], "aud": sa["token_uri"], "scope": SCOPE, "iat": int(time.time()),
                         "exp": int(time.time()) + 3600}, other_key, algorithm="ES256")
    for bad in (assertion(sa, aud="https://elsewhere/token"), assertion(sa, iss="x@y"), forged,
                assertion(sa, scope="https://www.googleapis.com/auth/cloud-platform")):
        answer = mint(mock, sa, bad)
        assert answer.status_code == 400
        assert answer.json()["error"] in ("invalid_grant", "invalid_scope")


def test_fcm_send_answers_with_a_message_name(mock, access_token):
    answer = fcm_send(mock, access_token, {"token": "device-1", "data": {"k": "v"},
                                           "android": {"priority": "high", "ttl": "30s"}})
    assert answer.status_code == 200, answer.text
    assert answer.json()["name"].startswith(f"projects/{mock.ready['projectId']}/messages/")
    assert mock.stats()["tokenMints"] >= 1


def test_fcm_refuses_a_wrong_bearer_without_error_code(mock):
    answer = fcm_send(mock, "ya29.wrong", {"token": "device-1"})
    assert answer.status_code == 401
    error = answer.json()["error"]
    assert error["status"] == "UNAUTHENTICATED" and "details" not in error


@pytest.mark.parametrize("message,fragment", [
    ({"token": "t", "data": {"n": 5}}, "message.data[0].value"),
    ({"token": "t", "topic": "x"}, "invalid argument"),
    ({"data": {"a": "b"}}, "Recipient"),
    ({"token": "t", "data": {"big": "x" * 4100}}, "too big"),
    ({"token": "t", "android": {"ttl": "30"}}, "message.android.ttl"),
    ({"token": "t", "bogus": 1}, "Unknown name"),
])
def test_fcm_rejects_bad_shapes_with_google_errors(mock, access_token, message, fragment):
    answer = fcm_send(mock, access_token, message)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["status"] == "INVALID_ARGUMENT"
    assert fragment.lower() in error["message"].lower()
    assert {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"} \
        in error["details"]


@pytest.mark.parametrize("token,status,code", [
    ("unregistered-1", 404, "UNREGISTERED"), ("mismatch-1", 403, "SENDER_ID_MISMATCH"),
    ("invalid-1", 400, "INVALID_ARGUMENT"), ("thirdpartyauth-1", 401, "THIRD_PARTY_AUTH_ERROR"),
])
def test_fcm_token_prefixes_answer_like_google(mock, access_token, token, status, code):
    answer = fcm_send(mock, access_token, {"token": token})
    assert answer.status_code == status
    assert answer.json()["error"]["details"][0]["errorCode"] == code


def test_fcm_script_unavailable_twice_then_delivers(mock, access_token):
    token = "scripted-" + uuid.uuid4().hex
    mock.script("fcm", token, [{"error": "UNAVAILABLE", "retryAfter": 7, "times": 2}])
    first, second, third = (fcm_send(mock, access_token, {"token": token}) for _ in range(3))
    assert (first.status_code, second.status_code, third.status_code) == (503, 503, 200)
    assert first.headers["retry-after"] == "7"
    assert len(mock.requests("fcm", token)) == 3


def test_revoke_makes_access_tokens_fail(tmp_path):
    with MockProviders(tmp_path) as fresh:
        sa = service_account(fresh)
        token = mint(fresh, sa, assertion(sa)).json()["access_token"]
        assert fcm_send(fresh, token, {"token": "a"}).status_code == 200
        fresh.control("POST", "/_mock/revoke", {})
        assert fcm_send(fresh, token, {"token": "a"}).status_code == 401
        token = mint(fresh, sa, assertion(sa)).json()["access_token"]
        assert fcm_send(fresh, token, {"token": "a"}).status_code == 200
        assert fresh.stats()["tokenMints"] == 2


def test_revoking_the_keys_refuses_every_later_mint_and_provider_token(tmp_path):
    with MockProviders(tmp_path) as fresh:
        sa = service_account(fresh)
        fresh.control("POST", "/_mock/revoke", {"keys": True})
        refused = mint(fresh, sa, assertion(sa))
        assert refused.status_code == 400
        assert refused.json() == {"error": "invalid_grant", "error_description": "Invalid JWT Signature."}
        status, _, body = apns(fresh, "ab" * 32)
        assert (status, json.loads(body)) == (403, {"reason": "InvalidProviderToken"})
        fresh.reset()
        assert mint(fresh, sa, assertion(sa)).status_code == 200
        assert apns(fresh, "ab" * 32)[0] == 200


# APNs (HTTP/2 via the curl CLI) --------------------------------------------------------

def provider_token(mock, iat=None, kid=None, team=None):
    with open(mock.ready["apnsKeyFile"], "rb") as f:
        key = serialization.load_pem_private_key(f.read(), None)
    return jwt.encode({"iss": team or mock.ready["apnsTeamId"], "iat": iat or int(time.time())}, key,
                      algorithm="ES256", headers={"kid": kid or mock.ready["apnsKeyId"]})


def apns(mock, token, payload=b'{"aps":{"alert":"hi"}}', headers=None, bearer=None, http1=False):
    fields = {"authorization": f"bearer {bearer or provider_token(mock)}", "apns-topic": "org.example.app",
              "apns-push-type": "alert", "apns-priority": "10"}
    fields.update(headers or {})
    command = ["curl", "-sS", "--cacert", mock.ready["caFile"], "--http1.1" if http1 else "--http2",
               "-o", "-", "-D", "-", "-X", "POST", "--data-binary", "@-"]
    for name, value in fields.items():
        command += ["-H", f"{name}: {value}"]
    command.append(f"{mock.https}/3/device/{token}")
    proc = subprocess.run(command, input=payload, capture_output=True, timeout=20)
    if proc.returncode != 0:
        return proc.returncode, {}, b""
    head, _, body = proc.stdout.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    status = int(lines[0].split()[1])
    return status, {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}, body


HEX = "a1" * 32


def test_apns_delivers_and_echoes_apns_id(mock):
    apns_id = str(uuid.uuid4())
    status, headers, body = apns(mock, HEX, headers={"apns-id": apns_id, "apns-collapse-id": "c" * 64})
    assert status == 200 and headers["apns-id"] == apns_id and body == b""


def test_apns_refuses_http1(mock):
    code, _, _ = apns(mock, HEX, http1=True)
    assert code == 52  # curl: empty reply from server


@pytest.mark.parametrize("change,status,reason", [
    ({"bearer": "not.a.jwt"}, 403, "InvalidProviderToken"),
    ({"kid": "OTHERKEY00"}, 403, "InvalidProviderToken"),
    ({"iat": int(time.time()) - 4000}, 403, "ExpiredProviderToken"),
    ({"headers": {"apns-collapse-id": "c" * 65}}, 400, "BadCollapseId"),
    ({"headers": {"apns-priority": "7"}}, 400, "BadPriority"),
    ({"headers": {"apns-push-type": "voip"}}, 400, "DeviceTokenNotForTopic"),
    ({"payload": b"x" * 4097}, 413, "PayloadTooLarge"),
    ({"token": "xyz"}, 400, "BadDeviceToken"),
    ({"token": "0" * 64}, 400, "BadDeviceToken"),  # never issued: `check --live`'s dummy token
])
def test_apns_rejects_like_apple(mock, change, status, reason):
    bearer = change.get("bearer") or provider_token(mock, change.get("iat"), change.get("kid"))
    got, _, body = apns(mock, change.get("token", HEX), payload=change.get("payload", b'{"aps":{}}'),
                        headers=change.get("headers"), bearer=bearer)
    assert got == status
    assert json.loads(body)["reason"] == reason


def test_apns_voip_allows_5120_bytes(mock):
    status, _, _ = apns(mock, HEX, payload=b"x" * 5120,
                        headers={"apns-topic": "org.example.app.voip", "apns-push-type": "voip"})
    assert status == 200


def test_apns_scripted_unregistered_carries_a_timestamp(mock):
    token = uuid.uuid4().hex * 2
    mock.script("apns", token, [], then={"reason": "Unregistered"})
    status, _, body = apns(mock, token)
    assert status == 410
    document = json.loads(body)
    assert document["reason"] == "Unregistered" and abs(document["timestamp"] / 1000 - time.time()) < 60


# Web Push ---------------------------------------------------------------------------------

def vapid_headers(origin, exp_offset=3600, sub="mailto:ops@example.org"):
    vapid = Vapid()
    vapid.generate_keys()
    claims = {"aud": origin, "exp": int(time.time()) + exp_offset, "sub": sub}
    if sub.startswith("mailto:"):
        token = vapid.sign(claims)["Authorization"].split(" ", 1)[1].split(",")[0].split("=", 1)[1]
    else:  # py_vapid refuses to sign a bad sub
        token = jwt.encode(claims, vapid.private_key, algorithm="ES256")
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"authorization": f"vapid t={token}, k={b64url(raw)}"}


def test_webpush_delivers_and_keeps_a_decryptable_body(mock):
    receiver = ec.generate_private_key(ec.SECP256R1())
    receiver_public = receiver.public_key().public_bytes(serialization.Encoding.X962,
                                                         serialization.PublicFormat.UncompressedPoint)
    auth = b"0123456789abcdef"
    plaintext = b'{"x-any-id":"1","payload":"hello"}'
    body = http_ece.encrypt(plaintext, private_key=ec.generate_private_key(ec.SECP256R1()), dh=receiver_public,
                            auth_secret=auth, version="aes128gcm")
    subscription = "sub-" + uuid.uuid4().hex
    headers = {"content-encoding": "aes128gcm", "ttl": "60", "urgency": "high", "topic": "abc"}
    headers.update(vapid_headers(mock.https))
    answer = requests.post(f"{mock.https}/push/{subscription}", data=body, headers=headers,
                           verify=mock.ready["caFile"], timeout=10)
    assert answer.status_code == 201 and answer.headers["location"].startswith(mock.https + "/m/")
    stored = base64.b64decode(mock.requests("webpush", subscription)[0]["body"])
    assert http_ece.decrypt(stored, private_key=receiver, auth_secret=auth, version="aes128gcm") == plaintext


@pytest.mark.parametrize("case,status", [
    ("aud", 403), ("exp", 401), ("sub", 401), ("no-auth", 401), ("ttl", 400), ("encoding", 400), ("size", 413),
])
def test_webpush_rejects_like_push_services(mock, case, status):
    origin = "https://elsewhere.example" if case == "aud" else mock.https
    headers = {"content-encoding": "aes128gcm", "ttl": "60"}
    headers.update(vapid_headers(origin, exp_offset=90000 if case == "exp" else 3600,
                                 sub="nobody" if case == "sub" else "mailto:a@b.c"))
    if case == "no-auth":
        del headers["authorization"]
    if case == "ttl":
        del headers["ttl"]
    if case == "encoding":
        headers["content-encoding"] = "aesgcm"
    body = b"x" * (4097 if case == "size" else 100)
    answer = requests.post(f"{mock.https}/push/s-{uuid.uuid4().hex}", data=body, headers=headers,
                           verify=mock.ready["caFile"], timeout=10)
    assert answer.status_code == status
    assert answer.json()["code"] == status


def test_webpush_gone_prefix_and_scripted_retry_after(mock):
    headers = {"content-encoding": "aes128gcm", "ttl": "0", **vapid_headers(mock.http)}
    assert requests.post(f"{mock.http}/push/gone-1", data=b"x", headers=headers, timeout=10).status_code == 410
    subscription = "s-" + uuid.uuid4().hex
    mock.script("webpush", subscription, [{"status": 429, "retryAfter": 120}])
    first = requests.post(f"{mock.http}/push/{subscription}", data=b"x", headers=headers, timeout=10)
    second = requests.post(f"{mock.http}/push/{subscription}", data=b"x", headers=headers, timeout=10)
    assert (first.status_code, first.headers["retry-after"], second.status_code) == (429, "120", 201)


def test_stats_count_connections_and_streams(mock):
    stats = mock.stats()
    assert stats["requests"]["fcm"] >= 1 and stats["requests"]["apns"] >= 1
    assert stats["connections"]["h2"] >= 1 and stats["maxConcurrentStreams"] >= 1
