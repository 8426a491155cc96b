"""The status page in a real browser: `pushnode serve` with `adminListen` against the mock
providers, put under load (a few hundred Notifies to devices of which some the mock refuses),
then `/status` loaded by headless Chromium (Debian `chromium`, which `make test-deps` installs). The
test asserts on the DOM Chromium built — provider rows, delivered counts, the SVG bars, the
recent outcomes — and that no token, endpoint, registration id or account is anywhere in the
page; `/status.json` and `pushnode status` tell the same; the public listener does not serve it.

The screenshot goes to a temporary file; with PUSHNODE_STATUS_SCREENSHOT=PATH it is copied
there too (docs/status-page.png is one such run's)."""
import html.parser
import json
import os
import shutil
import subprocess
import tempfile

import pytest

from conftest import run_cli
from pushnode_node import Node, wait_for
from test_delivery_e2e import Account, Space, Subscriber, apns_token, mock, node_env, uid  # noqa: F401

NOTIFIES = 300


def chromium():
    """The browser binary; fails (never skips) without one: CI installs it with `make test-deps` (part of `make test`)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.fail("headless Chromium is needed for the status page test: install Debian's `chromium` "
                "(apt-get install -y chromium, or `make test-deps`)", pytrace=False)


def browse(binary, url, *flags):
    """Runs headless Chromium on `url`; returns its stdout. The flags that make it run as root in a
    container without a GPU, a D-Bus or a writable home: --no-sandbox, --disable-gpu, a throwaway
    profile, no first-run work."""
    with tempfile.TemporaryDirectory() as profile:
        args = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
                f"--user-data-dir={profile}", *flags, url]
        proc = subprocess.run(args, capture_output=True, timeout=120, env=dict(os.environ, HOME=profile))
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    return proc.stdout.decode()


class DOM(html.parser.HTMLParser):
    """What the test reads from the DOM Chromium dumped: elements by tag with their attributes,
    the rows of each section's table as cell texts, and all visible text."""

    def __init__(self, text):
        super().__init__()
        self.elements = []
        self.rows = {}
        self.text = []
        self._section = None
        self._row = None
        self._cell = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs))
        if tag == "section":
            self._section = attrs.get("id")
        elif tag == "tr" and self._section:
            self._row = {"attrs": attrs, "cells": []}
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row["cells"].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.setdefault(self._section, []).append(self._row)
            self._row = None
        elif tag == "section":
            self._section = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)

    def all(self, tag, **attrs):
        return [a for t, a in self.elements if t == tag and all(a.get(k) == v for k, v in attrs.items())]

    def body_rows(self, section):
        """The section's rows below its header row."""
        return self.rows.get(section, [])[1:]


def test_the_status_page_of_a_node_under_load_in_headless_chromium(pushnode_bin, mock, tmp_path):
    browser = chromium()
    env = node_env(mock, PUSHNODE_ADMIN_LISTEN="127.0.0.1:0", PUSHNODE_DELIVERY_ATTEMPTS="2",
                   PUSHNODE_RATE_LIMITS_NOTIFY_PER_SECOND="1000", PUSHNODE_RATE_LIMITS_NOTIFY_BURST="1000")
    node = Node(pushnode_bin, env=env)
    try:
        assert node.admin_port, node.text_log()
        space, sender = Space(), Account(node)
        secrets = [sender.id]
        # Devices: healthy ones on every provider, and tokens the mock refuses: dead (FCM
        # UNREGISTERED), retried until attempts run out (FCM UNAVAILABLE).
        receivers = []
        for i in range(4):
            receiver = Account(node)
            android, ios, apns = uid("android-"), uid("ios-"), apns_token()
            sub = Subscriber(mock, uid("sub-"))
            ids = [receiver.register("android", android, device="phone"),
                   receiver.register("ios", ios, device="ipad"),
                   receiver.register("apns", apns, device="iphone"),
                   receiver.register("webpush", sub.endpoint, device="browser", p256dh=sub.p256dh, auth=sub.auth)]
            receiver.subscribe(space, "room")
            receivers.append(receiver)
            secrets += [receiver.id, android, ios, apns, sub.endpoint, sub.id, *ids]
        flaky = Account(node)
        unavailable = uid("unavailable-")
        secrets += [flaky.id, unavailable, flaky.register("android", unavailable, device="tablet")]
        flaky.subscribe(space, "room")
        doomed = Account(node)
        for i in range(3):
            token = uid("unregistered-")
            secrets += [token, doomed.register("android", token, device=f"old-{i}")]
        doomed.subscribe(space, "room")
        secrets.append(doomed.id)

        notification_ids = [sender.notify(space, "room", group=f"g{i % 7}")[0] for i in range(NOTIFIES)]
        wait_for(lambda: node.metric("pushnode_deliveries_total", provider="webpush", outcome="delivered") >= 4 * NOTIFIES,
                 timeout=120, message="every Web Push delivery")
        wait_for(lambda: node.metric("pushnode_deliveries_total", provider="fcm", outcome="dead") >= 3,
                 message="the dead FCM tokens")
        wait_for(lambda: sum(p["queueDepth"] for p in status_json(node)["providers"]) == 0, timeout=120,
                 message="an empty outbox")

        # Only the admin listener serves it by default.
        assert node.request("GET", "/status")[0] == 404
        assert node.request("GET", "/status.json")[0] == 404
        status, headers, page = node.request("GET", "/status", port=node.admin_port)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        policy = headers["Content-Security-Policy"]
        assert "default-src 'none'" in policy and "script-src" not in policy and "unsafe-inline" not in policy
        assert b"<script" not in page and b"http://" not in page.replace(b"http://www.w3.org/2000/svg", b"")

        url = f"http://127.0.0.1:{node.admin_port}/status"
        dom = DOM(browse(browser, url, "--dump-dom"))
        providers = {row["attrs"].get("data-provider"): row["cells"] for row in dom.body_rows("providers")}
        assert set(providers) == {"fcm", "apns", "webpush"}, providers
        for name, cells in providers.items():
            assert cells[1] == "healthy", cells
            assert cells[2] == "0", cells  # queue drained
        assert providers["fcm"][5].split()[0] in ("fcm.unregistered", "fcm.unavailable", "delivery.attempts_exhausted")
        assert providers["fcm"][5].endswith("ago"), providers["fcm"]
        assert providers["webpush"][5] == "none"

        legend = {li["data-outcome"] for li in dom.all("li") if "data-outcome" in li}
        assert legend == {"delivered", "retried", "dead", "rejected", "expired", "orphaned"}
        svgs = dom.all("svg")
        assert len(svgs) == 1 and svgs[0].get("role") == "img"
        bars = [a for t, a in dom.elements if t == "rect" and "bar" in a.get("class", "")]
        delivered_bars = [a for a in bars if a["class"] == "bar delivered"]
        assert delivered_bars and all(float(a["height"]) > 0 for a in delivered_bars)
        for outcome in ("dead", "retried", "rejected"):
            assert any(a["class"] == f"bar {outcome}" for a in bars), outcome

        registrations = {row["attrs"]["data-platform"]: int(row["cells"][1]) for row in dom.body_rows("registrations")}
        assert registrations == {"android": 5, "ios": 4, "apns": 4, "webpush": 4}  # the 3 dead ones pruned

        recent = dom.body_rows("recent")
        assert len(recent) == 50
        prefixes = {nid[:8] for nid in notification_ids}
        for row in recent:
            time_cell, provider, kind, outcome, reason, notification = row["cells"]
            assert provider in ("fcm", "apns", "webpush") and kind == "message"
            assert outcome in ("delivered", "retried", "dead", "rejected", "expired")
            assert len(notification) == 8 and notification in prefixes

        # Nothing that identifies a device or an account, anywhere in the DOM or the raw page.
        dumped = "".join(dom.text) + json.dumps(dom.elements)
        for secret in secrets:
            assert secret not in dumped and secret.encode() not in page, secret
        assert not any(nid in page.decode() for nid in notification_ids)

        # The same data as JSON, and through the CLI.
        data = status_json(node)
        assert data["storage"] == "sqlite" and data["version"] and data["uptimeSeconds"] >= 0
        assert data["registrations"] == registrations
        # Fed by the same counts as pushnode_deliveries_total.
        for outcome in ("delivered", "retried", "dead", "rejected"):
            counted = sum(node.metric("pushnode_deliveries_total", provider=p, outcome=outcome) for p in providers)
            assert sum(m[outcome] for m in data["perMinute"]) == counted, outcome
        assert sum(m["delivered"] for m in data["perMinute"]) == 16 * NOTIFIES
        # Each doomed device is dead once per Notify sent to it before its registration was pruned.
        assert 3 <= sum(m["dead"] for m in data["perMinute"]) <= 3 * NOTIFIES
        assert sum(m["rejected"] for m in data["perMinute"]) == NOTIFIES  # the flaky device's, attempts exhausted
        assert {p["provider"] for p in data["providers"]} == set(providers)
        raw = json.dumps(data)
        for secret in secrets:
            assert secret not in raw, secret
        _, out, _ = run_cli(pushnode_bin, "status", "--admin", f"http://127.0.0.1:{node.admin_port}")
        cli = json.loads(out)
        assert cli["registrations"] == registrations and cli["version"] == data["version"]

        shot = tmp_path / "status-page.png"
        browse(browser, url, f"--screenshot={shot}", "--window-size=1280,1600")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
        if os.environ.get("PUSHNODE_STATUS_SCREENSHOT"):
            shutil.copyfile(shot, os.environ["PUSHNODE_STATUS_SCREENSHOT"])
    finally:
        node.stop()


def test_pushnode_status_names_the_url_it_cannot_reach(pushnode_bin, tmp_path):
    code, out, err = run_cli(pushnode_bin, "status", "--admin", "http://127.0.0.1:1", check=False)
    assert code != 0 and out == b""
    assert "http://127.0.0.1:1" in err and "connection refused" in err
    # Without --admin: the config's adminListen (a wildcard host asked on loopback) ...
    config = tmp_path / "config.yaml"
    config.write_text("adminListen: 0.0.0.0:1\n")
    code, _, err = run_cli(pushnode_bin, "status", "--config", str(config), check=False)
    assert code != 0 and "cannot reach the node at http://127.0.0.1:1" in err
    # ... and a config that turns it off says where /status is served.
    config.write_text('adminListen: ""\n')
    code, _, err = run_cli(pushnode_bin, "status", "--config", str(config), check=False)
    assert code != 0 and "adminListen" in err and "--admin" in err
    _, out, _ = run_cli(pushnode_bin, "status", "--help")
    assert "--admin URL" in out.decode() and "127.0.0.1:9765" in out.decode()


def status_json(node):
    status, _, data = node.json("GET", "/status.json", port=node.admin_port)
    assert status == 200, data
    return data


def test_on_postgresql_the_page_names_the_driver_never_the_url(pushnode_bin, mock, postgres_database):
    env = node_env(mock, PUSHNODE_ADMIN_LISTEN="127.0.0.1:0", **postgres_database.env())
    node = Node(pushnode_bin, env=env)
    try:
        receiver = Account(node)
        receiver.register("android", uid("android-"))
        data = status_json(node)
        assert data["storage"] == "postgres" and data["registrations"] == {"android": 1}
        _, _, page = node.request("GET", "/status", port=node.admin_port)
        url = postgres_database.url
        for text in (url, url.split("@")[-1], postgres_database.name):
            assert text.encode() not in page and text not in json.dumps(data), text
        assert b'<dd id="storage">postgres</dd>' in page
    finally:
        node.stop()
