"""Writes Spec/vectors/pushkit.json: Huawei Push Kit vectors made independently of the Swift code.

- `ps256`: a HarmonyOS service-account JWT (header `kid`/`typ`/`alg`, claims `aud`/`iss`/`exp`/
  `iat`, Spec/providers.md "HarmonyOS Push Kit v3") signed by PyJWT with the throwaway RSA test
  key of jwt.json. RSASSA-PSS is randomized, so the Swift tests reproduce the header and claims
  bytes and verification checks the signature (the mock verifies every JWT the node sends).
- `requests`: the exact v1 (`huawei`) and v3 (`harmony`) request of every kind for fixed jobs,
  built here from the rules in Spec/providers.md; the Swift gateways must produce them byte for byte.

    python Tests/Interop/make_pushkit_vectors.py          # rewrite the file
"""
import hashlib
import json
import os

import jwt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUT = os.path.join(ROOT, "Spec", "vectors", "pushkit.json")

NOTIFICATION_ID = "8a7c2f0e-5b1d-4f7a-9c3e-2d6b1a0f9e84"
GROUP_ID = "fc3e510dcc38f783dd3923b72b9846d73a71648f21ee5e375f0c3597d069470e"
TOKEN = "MAAALgE4G98BAAAAstExampleTokenForHuaweiPushKit0123456789"
MESSAGE = {
    "payload": "q83vASNFZ4mrze8BI0VniavN7wEjRWeJ+/8AAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHw==",
    "signature": "3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ow==",
    "keyId": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
}
DATA_TYPE = {"message": "normal", "silent": "silent", "call": "call", "clear": "clear"}
ALERT = {"title": "New message", "body": "Open the app"}


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def data_keys(kind, with_message):
    keys = {"x-any-type": DATA_TYPE[kind], "x-any-id": NOTIFICATION_ID, "x-any-group-id": GROUP_ID}
    if with_message:
        keys.update({"x-any-payload": MESSAGE["payload"], "x-any-signature": MESSAGE["signature"],
                     "x-any-key-id": MESSAGE["keyId"]})
    return keys


def collapse_group(group):
    return int.from_bytes(hashlib.sha256(group.encode()).digest()[:4], "big") % 100 + 1


def huawei(kind, ttl, with_message):
    android = {}
    if kind == "message":
        android["collapse_key"] = collapse_group(GROUP_ID)
    android["urgency"] = "NORMAL" if kind == "silent" else "HIGH"
    if kind == "call":
        android["category"] = "VOIP"
    android["ttl"] = f"{ttl}s"
    body = {"validate_only": False, "message": {
        "data": compact(data_keys(kind, with_message)), "android": android, "token": [TOKEN]}}
    return {"url": "https://push-api.cloud.huawei.com/v1/10086/messages:send",
            "headers": [["authorization", "Bearer huawei-access-token"],
                        ["content-type", "application/json; charset=utf-8"]],
            "body": compact(body)}


def harmony(kind, ttl, with_message):
    push_type = {"message": 0, "silent": 6, "clear": 6, "call": 10}[kind]
    if push_type == 0:
        payload = {"notification": {"category": "IM", "title": ALERT["title"], "body": ALERT["body"],
                                    "clickAction": {"actionType": 0, "data": data_keys(kind, with_message)}}}
    else:
        payload = {"extraData": compact(data_keys(kind, with_message))}
    options = {"ttl": ttl}
    if push_type == 0:
        options["collapseKey"] = collapse_group(GROUP_ID)
    body = {"payload": payload, "target": {"token": [TOKEN]}, "pushOptions": options}
    return {"url": "https://push-api.cloud.huawei.com/v3/388421841222199046/messages:send",
            "headers": [["authorization", "Bearer harmony.service.jwt"], ["content-type", "application/json"],
                        ["push-type", str(push_type)]],
            "body": compact(body)}


def build():
    with open(os.path.join(ROOT, "Spec", "vectors", "jwt.json")) as f:
        pem = json.load(f)["rs256"]["pkcs8PEM"]
    issued_at = 1_735_689_600
    header = {"kid": "8d2f0c1a4b5e", "typ": "JWT", "alg": "PS256"}
    claims = {"aud": "https://oauth-login.cloud.huawei.com/oauth2/v3/token", "iss": "1234567890",
              "exp": issued_at + 3600, "iat": issued_at}
    token = jwt.encode(claims, pem, algorithm="PS256", headers={"kid": header["kid"]})
    requests = []
    for kind, ttl in (("message", 3600), ("silent", 3600), ("clear", 3600), ("call", 45)):
        with_message = kind != "silent"
        for platform, make in (("huawei", huawei), ("harmony", harmony)):
            requests.append({"platform": platform, "kind": kind, "ttl": ttl, "withMessage": with_message,
                             **make(kind, ttl, with_message)})
    return {
        "description": "Huawei Push Kit vectors written by Tests/Interop/make_pushkit_vectors.py (Python, PyJWT), "
                       "independently of the Swift gateways. ps256: a HarmonyOS service-account JWT signed by "
                       "PyJWT with jwt.json's throwaway RSA test key (PSS is randomized: the Swift signer must "
                       "produce the same headerJSON and claimsJSON, and its tokens verify). requests: the exact "
                       "request per platform and kind for a job with notificationId, groupId, token and message "
                       "below, appId 10086, projectId 388421841222199046, the default alert of ALERT; ttl is "
                       "the whole seconds left.",
        "job": {"notificationId": NOTIFICATION_ID, "groupId": GROUP_ID, "token": TOKEN, "message": MESSAGE,
                "alert": ALERT},
        "collapseGroup": {"groupId": GROUP_ID, "slot": collapse_group(GROUP_ID)},
        "ps256": {"pkcs8PEM": pem, "keyId": header["kid"], "subAccount": claims["iss"], "issuedAt": issued_at,
                  "headerJSON": compact(header), "claimsJSON": compact(claims), "token": token},
        "requests": requests,
    }


if __name__ == "__main__":
    with open(OUTPUT, "w") as f:
        json.dump(build(), f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {OUTPUT}")
