"""Routes requests to the providers, the control API and the generic test routes."""

import base64
import json
import re
import time

from mock_apns import APNs
from mock_fcm import FCM
from mock_huawei import HARMONY_SEND, HUAWEI_SEND, TOKEN_PATH, PushKitMock
from mock_http import Response, json_response
from mock_unifiedpush import UnifiedPush
from mock_webpush import WebPush

FCM_SEND = re.compile(r"^/v1/projects/([^/]+)/messages:send$")
APNS_SEND = re.compile(r"^/3/device/(.*)$")
WEBPUSH_SEND = re.compile(r"^/push/([^/]+)$")
UNIFIEDPUSH_SEND = re.compile(r"^/up/([^/]+)$")
SCRIPTED = re.compile(r"^/_mock/scripted/([^/]+)$")


class App:
    def __init__(self, state, credentials, token_ttl, apns_bundle, apns_token_update_window=0.0, webpush_vapid_key=None):
        self.state = state
        self.fcm = FCM(state, credentials, token_ttl)
        self.pushkit = PushKitMock(state, credentials.directory, token_ttl)
        self.apns = APNs(state, credentials, apns_bundle, apns_token_update_window)
        self.webpush = WebPush(state, webpush_vapid_key)
        self.unifiedpush = UnifiedPush(state)
        self.connections = set()  # open HTTP/2 connections (for /_mock/goaway)

    def handle(self, request):
        path = request.path
        try:
            if path.startswith("/_mock/"):
                return self.control(request)
            match = APNS_SEND.match(path)
            if match:
                if request.http_version != "2":
                    return Response(action="close")  # APNs speaks HTTP/2 only
                return self.apns.send(request, match.group(1))
            match = FCM_SEND.match(path)
            if match:
                return self.fcm.send(request, match.group(1))
            if path == "/token" and request.method == "POST":
                return self.fcm.token(request)
            match = WEBPUSH_SEND.match(path)
            if match:
                return self.webpush.send(request, match.group(1))
            match = UNIFIEDPUSH_SEND.match(path)
            if match:
                return self.unifiedpush.send(request, match.group(1))
            if path == TOKEN_PATH and request.method == "POST":
                return self.pushkit.token(request)
            match = HUAWEI_SEND.match(path)
            if match and request.method == "POST":
                return self.pushkit.send_v1(request, match.group(1))
            match = HARMONY_SEND.match(path)
            if match and request.method == "POST":
                return self.pushkit.send_v3(request, match.group(1))
            return json_response(404, {"error": "no such route"})
        except Exception as error:  # a mock bug must show, not hang the client
            return json_response(500, {"error": "mock failure", "detail": repr(error)})

    # control API and generic routes

    def control(self, request):
        path, method = request.path, request.method
        params = request.query_params()
        if path == "/_mock/script" and method == "POST":
            body = json.loads(request.body)
            for token in body.get("tokens") or [body["token"]]:
                self.state.set_script(body["provider"], token, body.get("responses", []), body.get("then"))
            return json_response(200, {"ok": True})
        if path == "/_mock/requests":
            return json_response(200, {"requests": self.state.received(params.get("provider"), params.get("token"))})
        if path == "/_mock/reset" and method == "POST":
            self.state.reset()
            self.apns.current_token, self.apns.seen_tokens = None, set()
            return json_response(200, {"ok": True})
        if path == "/_mock/stats":
            return json_response(200, self.state.stats())
        if path == "/_mock/revoke" and method == "POST":
            self.state.revoked_before = time.time() + 0.001
            if request.body and json.loads(request.body).get("keys"):
                self.state.keys_revoked = True
            return json_response(200, {"ok": True})
        if path == "/_mock/goaway" and method == "POST":
            chosen = [c for c in self.connections
                      if "connection" not in params or str(c.stats.id) == params["connection"]]
            for connection in chosen:
                connection.goaway()
            return json_response(200, {"connections": len(chosen)})
        if path == "/_mock/echo":
            return json_response(200, {
                "method": method, "path": path, "query": request.query,
                "headers": [[k, v] for k, v in request.headers],
                "body": base64.b64encode(request.body).decode(),
                "httpVersion": request.http_version, "connection": request.connection.id},
                delay_ms=int(params.get("delayMs", "0")))
        if path == "/_mock/bytes":
            return Response(200, [("content-type", "application/octet-stream")], b"x" * int(params.get("n", "0")))
        if path == "/_mock/delay":
            return json_response(200, {"delayed": int(params.get("ms", "0"))}, delay_ms=int(params.get("ms", "0")))
        if path == "/_mock/status":
            code = int(params.get("code", "200"))
            headers = [("location", params["location"])] if "location" in params else []
            return Response(code, headers, b"status")
        match = SCRIPTED.match(path)
        if match:
            entry = self.state.scripted("mock", match.group(1)) or {}
            record = self.state.remember("mock", match.group(1), request, entry.get("status", 200))
            response = Response(int(entry.get("status", 200)), [("x-mock-connection", str(request.connection.id))],
                                b"scripted", delay_ms=int(entry.get("delayMs", 0)), action=entry.get("action"))
            response.record = record
            return response
        return json_response(404, {"error": "no such control route"})
