#!/usr/bin/env python3
"""Mock push providers for pushnode's tests: FCM HTTP v1 with its OAuth token
endpoint, APNs over HTTP/2, Web Push endpoints, and Huawei Push Kit (v1 and HarmonyOS v3,
Tests/Mocks/mock_huawei.py), answering like the vendors do.

One process, two ports on --host (default 127.0.0.1):
  tls   HTTPS with a throwaway CA; ALPN h2 (HTTP/2) or http/1.1. APNs paths answer
        over HTTP/2 only: an HTTP/1.1 request to /3/device/... gets its connection
        closed without an answer (Apple does not speak HTTP/1.1).
  http  plain HTTP/1.1 (keep-alive). Same routes.

Usage:
  mockproviders.py --dir DIR [--ca-file PATH] [--ready-file PATH] [--tls-port 0]
                   [--http-port 0] [--host 127.0.0.1] [--max-streams 1000]
                   [--token-ttl 3600] [--project-id pushnode-mock]
                   [--apns-team-id TEAMID1234] [--apns-key-id KEYID12345]
                   [--apns-bundle BUNDLE] [--apns-key-file P8] [--apns-token-update-window S]
                   [--webpush-vapid-key KEY] [--no-record] [--keep 200000]
                   [--exit-with-parent]

At start it writes into DIR: ca.pem (or --ca-file) — the CA to pass as caFile;
other-ca.pem — an unrelated CA; server.pem/server-key.pem; service-account.json —
a complete Google service account whose token_uri is https://HOST:TLS/token;
AuthKey_<keyid>.p8 — the APNs signing key. When listening it prints one JSON line
to stdout and writes the same JSON to --ready-file (atomically):
  {"tlsPort", "httpPort", "host", "caFile", "otherCaFile", "serviceAccountFile",
   "apnsKeyFile", "apnsKeyId", "apnsTeamId", "projectId", "tokenURI", "pid"}
It runs until SIGTERM/SIGINT (or, with --exit-with-parent, until its parent process dies).

Provider routes:
  POST /token                               OAuth JWT-bearer grant: verifies the RS256
        assertion (iss = client_email, aud = token_uri, scope firebase.messaging,
        exp - iat <= 3600) against the service account's key; answers
        {"access_token","expires_in":TTL,"token_type":"Bearer"}; 400 invalid_grant
        otherwise. Mints are counted (stats.tokenMints).
  POST /v1/projects/{p}/messages:send       FCM. Bearer token must be a live minted one
        (401 UNAUTHENTICATED without errorCode otherwise); p must be the project id
        (403); message shape checked (exactly one of token/topic/condition, data values
        strings, reserved keys, data <= 4096 bytes, android.ttl "<n>s", priority, apns
        headers, unknown fields) with Google's 400 INVALID_ARGUMENT bodies; answers
        {"name":"projects/p/messages/0:..."}.
        Token prefixes: unregistered- (404 UNREGISTERED), invalid- (400 INVALID_ARGUMENT
        invalid token), mismatch- (403 SENDER_ID_MISMATCH), quota- (429 QUOTA_EXCEEDED),
        unavailable- (503), internal- (500), thirdpartyauth- (401 THIRD_PARTY_AUTH_ERROR),
        slow-<ms>- (delayed 200).
  POST /3/device/{hex token}                APNs. authorization: bearer <ES256 JWT> with
        kid = key id, iss = team id, iat < 1 h old (403 Missing/Invalid/
        ExpiredProviderToken); apns-topic required, apns-push-type valid (voip needs a
        .voip topic), apns-priority 10|5|1 (background not 10), apns-expiration
        digits, apns-collapse-id <= 64 bytes, apns-id a UUID (echoed, or made up),
        payload non-empty and <= 4096 bytes (voip 5120) else 413 PayloadTooLarge;
        errors are {"reason"} (410 adds "timestamp" ms). Token prefixes: dead (410
        Unregistered), bad0 (400 BadDeviceToken), 0bad (DeviceTokenNotForTopic),
        5555 (503), 4290 (429); an all-zero token is 400 BadDeviceToken (Apple never
        issues one: `pushnode check --live` sends it once auth and topic passed).
        With --apns-token-update-window S, the key has one current JWT: a different one
        within S seconds of the last change is 429 TooManyProviderTokenUpdates (Apple: 20 min).
  POST /oauth2/v3/token, /v1/{appId}/messages:send, /v3/{projectId}/messages:send
        Huawei Push Kit (see mock_huawei.py): the ready JSON adds huaweiAppId,
        huaweiClientSecret, huaweiTokenURL, harmonyProjectId, harmonyServiceAccountFile;
        stats add huaweiTokenMints. /_mock/revoke refuses earlier access tokens and JWTs;
        {"keys": true} also the client secret and the service account's key.
  POST /push/{id}                           Web Push. Authorization: vapid t=<JWT>, k=<key>
        (ES256 verified with k; aud must be this origin (403 otherwise); exp in the future
        and <= 24 h ahead; sub mailto:/https:; 401 otherwise), TTL required,
        Content-Encoding: aes128gcm for a body, Urgency and Topic checked, body <= 4096
        (413); answers 201 with Location. autopush-style error JSON. With --webpush-vapid-key K,
        every subscription was made with applicationServerKey K: another k is 401 "VAPID
        public key mismatch" (errno 109). Id prefixes: gone-
        (410), notfound- (404), busy- (429, Retry-After 30), down- (503), hang- (the stream
        is taken and never answered: an hour's delay).

Control API (any port):
  POST /_mock/script   {"provider": "fcm"|"apns"|"webpush"|"mock", "token": T (or "tokens": [...]),
                        "responses": [entry, ...], "then": entry | null}
        Each later request for that token takes the next entry (an entry with "times": N
        counts N times); when they run out, "then" applies to every request (null:
        normal behaviour). Entry fields: "status" (HTTP status), "reason"/"error" (APNs
        reason or FCM errorCode or Web Push message; the status follows from it if
        omitted), "message" (FCM error message), "retryAfter" (seconds, Retry-After),
        "delayMs" (answer late; alone it delays a normal answer), "action": "reset"
        (RST_STREAM; HTTP/1.1: drop connection), "goaway" (GOAWAY refusing this stream,
        then close), "close" (drop the connection without answering).
        Auth and shape checks run before a script applies.
  GET  /_mock/requests?provider=&token=  {"requests": [{"provider","token","method","path",
        "headers": [[name, value]...], "body": base64, "httpVersion", "connection",
        "status", "time", "answered"}]}   (provider "token" = token endpoint calls; "time" when
        the request was received, "answered" when its answer, reset or close left the mock,
        null while pending or when the connection closed first)
  POST /_mock/reset    clears scripts, recorded requests, counters and revocations (keeps credentials)
  GET  /_mock/stats    {"requests": {provider: n}, "tokenMints", "connections": {"total",
        "open","h2","http1"}, "maxConcurrentStreams" (most streams open at once on one
        connection), "perConnection": [{"id","protocol","tls","requests",
        "maxConcurrentStreams","open"}] (last 100)}
  POST /_mock/revoke   every access token and APNs JWT issued so far is refused from now on
        (new ones are accepted: a renewal helps). With {"keys": true} the signing keys
        themselves are revoked too, as in the Google and Apple consoles: every later
        assertion is 400 invalid_grant "Invalid JWT Signature." and every APNs JWT 403
        InvalidProviderToken, until /_mock/reset
  POST /_mock/goaway[?connection=ID]   graceful GOAWAY on every (or that) open HTTP/2
        connection: streams already received are answered, then the connection closes
Generic routes for HTTP client tests: /_mock/echo[?delayMs=N] (method, headers, base64
body, httpVersion, connection id as JSON), /_mock/bytes?n=N, /_mock/delay?ms=N,
/_mock/status?code=N[&location=URL], /_mock/scripted/{token} (scripts with provider
"mock": status, delayMs, action; default 200 "scripted").
"""

import argparse
import asyncio
import json
import os
import signal
import ssl
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mock_app import App  # noqa: E402
from mock_credentials import Credentials  # noqa: E402
from mock_h1 import H1Connection  # noqa: E402
from mock_h2 import H2Connection  # noqa: E402
from mock_state import State  # noqa: E402


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Mock FCM, APNs and Web Push providers.")
    parser.add_argument("--dir", required=True, help="where generated credentials are written")
    parser.add_argument("--ca-file", help="path of the CA PEM to write (default DIR/ca.pem)")
    parser.add_argument("--ready-file", help="JSON file written once listening")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--tls-port", type=int, default=0)
    parser.add_argument("--http-port", type=int, default=0)
    parser.add_argument("--max-streams", type=int, default=1000, help="HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS")
    parser.add_argument("--token-ttl", type=float, default=3600, help="OAuth access token lifetime (s)")
    parser.add_argument("--project-id", default="pushnode-mock")
    parser.add_argument("--apns-team-id", default="TEAMID1234")
    parser.add_argument("--apns-key-id", default="KEYID12345")
    parser.add_argument("--apns-bundle", help="accept only this bundle id (and .voip) as apns-topic")
    parser.add_argument("--apns-key-file", help="sign with this .p8 instead of a new one (another mock's: one key, two hosts)")
    parser.add_argument("--apns-token-update-window", type=float, default=0,
                        help="refuse a key's new provider token within this many seconds of the last change "
                             "(429 TooManyProviderTokenUpdates; Apple: 1200); 0 = not checked")
    parser.add_argument("--webpush-vapid-key", help="the applicationServerKey (base64url) every subscription was made "
                                                     "with: another k is 401 VAPID public key mismatch")
    parser.add_argument("--no-record", action="store_true", help="count requests without keeping them")
    parser.add_argument("--keep", type=int, default=200_000, help="most recorded requests kept")
    parser.add_argument("--exit-with-parent", action="store_true", help="stop when the parent process dies")
    return parser.parse_args(argv)


class _ALPNProtocol(asyncio.Protocol):
    """Picks the HTTP/2 or HTTP/1.1 handler by the ALPN protocol the client chose."""

    def __init__(self, app, state, max_streams):
        self.app, self.state, self.max_streams = app, state, max_streams
        self.inner = None

    def connection_made(self, transport):
        ssl_object = transport.get_extra_info("ssl_object")
        if ssl_object is not None and ssl_object.selected_alpn_protocol() == "h2":
            self.inner = H2Connection(self.app, self.state, "https", self.max_streams)
        else:
            self.inner = H1Connection(self.app, self.state, "https")
        self.inner.connection_made(transport)

    def data_received(self, data):
        self.inner.data_received(data)

    def connection_lost(self, exc):
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def eof_received(self):
        return False


async def serve(args):
    credentials = Credentials(args.dir, args.ca_file, [args.host, "localhost"], args.project_id,
                              args.apns_team_id, args.apns_key_id, args.apns_key_file)
    state = State(record=not args.no_record, keep=args.keep)
    app = App(state, credentials, args.token_ttl, args.apns_bundle, args.apns_token_update_window,
              args.webpush_vapid_key)

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(credentials.server_cert_file, credentials.server_key_file)
    context.set_alpn_protocols(["h2", "http/1.1"])

    loop = asyncio.get_running_loop()
    tls_server = await loop.create_server(lambda: _ALPNProtocol(app, state, args.max_streams), args.host,
                                          args.tls_port, ssl=context, backlog=1024)
    http_server = await loop.create_server(lambda: H1Connection(app, state, "http"), args.host, args.http_port,
                                           backlog=1024)
    tls_port = tls_server.sockets[0].getsockname()[1]
    http_port = http_server.sockets[0].getsockname()[1]
    authority = f"[{args.host}]" if ":" in args.host else args.host
    token_uri = f"https://{authority}:{tls_port}/token"
    app.fcm.token_uri = token_uri
    credentials.write_service_account(token_uri)

    ready = {
        "tlsPort": tls_port, "httpPort": http_port, "host": args.host,
        "caFile": credentials.ca_file, "otherCaFile": credentials.other_ca_file,
        "serviceAccountFile": credentials.service_account_file, "apnsKeyFile": credentials.apns_key_file,
        "apnsKeyId": credentials.key_id, "apnsTeamId": credentials.team_id, "projectId": credentials.project_id,
        "tokenURI": token_uri, "pid": os.getpid(),
        "huaweiAppId": app.pushkit.app_id, "huaweiClientSecret": app.pushkit.client_secret,
        "huaweiTokenURL": f"https://{authority}:{tls_port}/oauth2/v3/token",
        "harmonyProjectId": app.pushkit.project_id, "harmonyServiceAccountFile": app.pushkit.service_account_file,
    }
    if args.ready_file:
        temporary = args.ready_file + ".tmp"
        with open(temporary, "w") as f:
            json.dump(ready, f)
        os.replace(temporary, args.ready_file)
    print(json.dumps(ready), flush=True)

    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if args.exit_with_parent:
        loop.create_task(_watch_parent(os.getppid(), stop))
    await stop.wait()
    tls_server.close()
    http_server.close()


async def _watch_parent(parent, stop):
    while os.getppid() == parent:
        await asyncio.sleep(0.5)
    stop.set()


def main(argv=None):
    args = parse_arguments(argv if argv is not None else sys.argv[1:])
    try:
        import uvloop  # optional: about twice the request rate
        uvloop.install()
    except ImportError:
        pass
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
