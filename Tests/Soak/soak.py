#!/usr/bin/env python3
"""The soak (PROTOCOL §4.3 "a 200 is never lost, even on kill -9"): the real
`pushnode serve` against the mock providers (Tests/Mocks, FCM), senders calling Notify at a steady
rate, `kill -9` of the node every 1.5–4 s (randomized) and a restart on the same store, and on
PostgreSQL a database stop/start (`pg-cluster.sh halt`/`resume`) in the middle. At the end an
exact account against every request the mock recorded: each notification answered 200 reached
every subscribed device at least once (duplicates counted), and no answer was other than 200 or
503 `storage.unavailable`. Prints the figures; exits 1 when anything was lost or unexpected.

    soak.py --binary .build/release/pushnode --minutes 3 --storage postgres

Run by `make soak`, `PushBench soak` and, with small numbers, Tests/Interop/test_soak.py. Not a
performance test: the rate is an offered load, the figures are counts."""
import argparse
import base64
import collections
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [HERE, os.path.join(ROOT, "Tests", "Interop")]

from mockproviders_helper import MockProviders  # noqa: E402
from nodeclient import Account, Space  # noqa: E402
from node_process import NodeProcess  # noqa: E402
from senders import Ledger, Sender  # noqa: E402

PG_CLUSTER = os.path.join(ROOT, "Tests", "pg-cluster.sh")


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "pushnode"))
    parser.add_argument("--minutes", type=float, default=1.0, help="how long the senders send (under kills)")
    parser.add_argument("--storage", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--rate", type=float, default=20.0, help="Notify calls per second, all senders together")
    parser.add_argument("--senders", type=int, default=4)
    parser.add_argument("--devices", type=int, default=2, help="subscribed FCM devices each Notify reaches")
    parser.add_argument("--kill-every", type=float, nargs=2, default=[1.5, 4.0], metavar=("MIN", "MAX"),
                        help="seconds between kills, drawn uniformly")
    parser.add_argument("--outage", type=float, default=3.0, help="seconds the database is stopped (postgres)")
    parser.add_argument("--drain", type=float, default=120.0, help="seconds allowed for the deliveries after the last send")
    parser.add_argument("--seed", type=int, default=None, help="the kill schedule's random seed")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    return parser.parse_args(argv)


def pg_cluster(command, directory):
    proc = subprocess.run([PG_CLUSTER, command, directory], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"pg-cluster.sh {command}: {proc.stderr}")
    return proc.stdout.strip()


def signed(account, port, method, path, document):
    """One signed registration call; it must succeed (the node is up and nothing is killed yet)."""
    body = json.dumps(document).encode()
    headers = dict(account.headers(method, path, body), **{"Content-Type": "application/json"})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    answer = response.read()
    conn.close()
    assert response.status == 200, (path, response.status, answer)


def readyz(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def delivered(mock):
    """Counter of (x-any-id, token) over every FCM request the mock accepted (status 200), whether or
    not its answer reached the node before a kill: the provider has the message either way."""
    counts = collections.Counter()
    for request in mock.requests("fcm"):
        if request["status"] != 200:
            continue
        message = json.loads(base64.b64decode(request["body"]))["message"]
        counts[(message["data"]["x-any-id"], message["token"])] += 1
    return counts


class Soak:
    def __init__(self, options, work):
        self.options, self.work = options, work
        self.random = random.Random(options.seed)
        self.ledger = Ledger()
        self.kills = 0
        self.outages = []  # (seconds down, seconds from resume to /readyz 200)

    def node_env(self, mock, store_env):
        return dict(store_env,
                    PUSHNODE_DATA_DIR=os.path.join(self.work, "data"),
                    PUSHNODE_FCM_CREDENTIALS_PATH=mock.ready["serviceAccountFile"],
                    PUSHNODE_FCM_BASE_URL=mock.https, PUSHNODE_TLS_CA_FILE=mock.ready["caFile"],
                    PUSHNODE_RATE_LIMITS_NOTIFY_BURST="1000000", PUSHNODE_RATE_LIMITS_NOTIFY_PER_SECOND="100000",
                    PUSHNODE_RATE_LIMITS_REGISTRATION_BURST="10000",
                    PUSHNODE_LIMITS_NEW_ACCOUNTS_PER_ADDRESS="0")  # every soak client is 127.0.0.1

    def run(self, mock, store_env, cluster_dir):
        node = NodeProcess(self.options.binary, self.node_env(mock, store_env), os.path.join(self.work, "node.log"))
        try:
            return self.soak(node, mock, cluster_dir)
        except BaseException:
            if node.alive():  # never leave a node running behind a failed soak
                node.kill()
            print("node log (tail):\n" + node.log_tail(), file=sys.stderr)
            raise

    def soak(self, node, mock, cluster_dir):
        node.start()
        space = Space()
        tokens = [f"soak-device-{index:02d}" for index in range(self.options.devices)]
        for token in tokens:
            reader = Account()
            signed(reader, node.port, "POST", "/v1/tokens", {"deviceId": token, "platform": "android", "token": token})
            signed(reader, node.port, "PUT", "/v1/subscriptions", {"topics": [space.topic("chats")]})

        stop, give_up = threading.Event(), threading.Event()
        senders = [Sender(node.port, space.topic("chats"), self.options.rate / self.options.senders, self.ledger, stop, give_up)
                   for _ in range(self.options.senders)]
        for sender in senders:
            sender.start()
        began = time.monotonic()
        duration = self.options.minutes * 60
        outage_due = cluster_dir is not None
        try:
            while True:
                pause = self.random.uniform(*self.options.kill_every)
                if time.monotonic() - began + pause >= duration:
                    break
                time.sleep(pause)
                if outage_due and time.monotonic() - began >= duration / 2:
                    outage_due = False
                    self.database_outage(node, cluster_dir)
                    continue
                node.kill()
                self.kills += 1
                node.start()
            time.sleep(max(0.0, duration - (time.monotonic() - began)))
        finally:
            stop.set()
            # The node stays up: a body in hand gets its 200 (or the run gives it up).
            deadline = time.monotonic() + 30
            for sender in senders:
                sender.join(timeout=max(0.1, deadline - time.monotonic()))
            give_up.set()
            for sender in senders:
                sender.join(timeout=30)

        expected = {(notification, token) for notification in self.ledger.accepted for token in tokens}
        deadline = time.monotonic() + self.options.drain
        counts = delivered(mock)
        while not expected <= set(counts) and time.monotonic() < deadline:
            time.sleep(1)
            counts = delivered(mock)
        stopped = node.stop()
        return self.figures(node, expected, counts, stopped)

    def database_outage(self, node, cluster_dir):
        """`pg-cluster.sh halt` (an immediate stop) under load, `resume` after `--outage` s; the
        node keeps running throughout and must answer 503 `storage.unavailable` meanwhile."""
        halted = time.monotonic()
        pg_cluster("halt", cluster_dir)
        time.sleep(self.options.outage)
        pg_cluster("resume", cluster_dir)
        resumed = time.monotonic()
        while readyz(node.port) != 200:
            if time.monotonic() - resumed > 60:
                raise AssertionError("/readyz not 200 within 60 s of the database's return:\n" + node.log_tail())
            time.sleep(0.05)
        self.outages.append((resumed - halted, time.monotonic() - resumed))

    def figures(self, node, expected, counts, stopped):
        ledger = self.ledger
        lost = expected - set(counts)
        delivered_pairs = expected & set(counts)
        restarts = node.ready_times[1:]
        return {
            "storage": self.options.storage,
            "minutes": self.options.minutes,
            "notifies": ledger.notifies,
            "answers": dict(sorted(ledger.answers.items())),
            "accepted": len(ledger.accepted),
            "gave_up": ledger.gave_up,
            "devices": len({token for _, token in expected}) if expected else self.options.devices,
            "deliveries_expected": len(expected),
            "delivered": len(delivered_pairs),
            "lost": len(lost),
            "lost_examples": sorted(lost)[:5],
            "duplicates": sum(counts[pair] - 1 for pair in delivered_pairs),
            "delivered_without_200": len({n for n, _ in counts} - ledger.accepted),
            "unexpected": dict(ledger.unexpected),
            "kills": self.kills,
            "restarts": len(restarts),
            "ready_max_s": round(max(restarts), 3) if restarts else None,
            "ready_mean_s": round(sum(restarts) / len(restarts), 3) if restarts else None,
            "outages": [{"down_s": round(down, 2), "ready_after_s": round(ready, 2)} for down, ready in self.outages],
            "final_stop_exit": stopped,
        }


def failures(figures, options):
    found = []
    if figures["lost"]:
        found.append(f"{figures['lost']} deliveries answered 200 were never delivered")
    if figures["unexpected"]:
        found.append(f"unexpected answers {figures['unexpected']}")
    if not figures["accepted"]:
        found.append("no Notify was answered 200")
    if not figures["kills"]:
        found.append("the node was never killed (the run is shorter than one kill interval)")
    if options.storage == "postgres" and not figures["outages"]:
        found.append("the database was never stopped")
    if options.storage == "postgres" and not figures["answers"].get("503 storage.unavailable"):
        found.append("no 503 storage.unavailable while the database was down")
    if figures["final_stop_exit"] != 0:
        found.append(f"the last node exited {figures['final_stop_exit']} on SIGTERM")
    return found


def report(figures):
    answers = ", ".join(f"{key}: {value}" for key, value in figures["answers"].items())
    lines = [
        f"soak on {figures['storage']}, {figures['minutes']} min",
        f"  notifies sent        {figures['notifies']}  (answers: {answers})",
        f"  answered 200         {figures['accepted']}  (gave up before any 200: {figures['gave_up']})",
        f"  deliveries expected  {figures['deliveries_expected']}  ({figures['devices']} devices each)",
        f"  delivered            {figures['delivered']}",
        f"  lost                 {figures['lost']}",
        f"  duplicates           {figures['duplicates']}",
        f"  delivered, no 200    {figures['delivered_without_200']}  (accepted, answer cut by a kill, never retried to a 200)",
        f"  unexpected answers   {figures['unexpected'] or 0}",
        f"  kills / restarts     {figures['kills']} / {figures['restarts']}",
        f"  time to ready        max {figures['ready_max_s']} s, mean {figures['ready_mean_s']} s",
    ]
    for outage in figures["outages"]:
        lines.append(f"  database outage      down {outage['down_s']} s, /readyz 200 {outage['ready_after_s']} s after resume")
    print("\n".join(lines), flush=True)


def main(argv=None):
    options = arguments(argv)
    if not os.path.exists(options.binary):
        print(f"soak: no pushnode at {options.binary} (swift build -c release)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="pushnode-soak-") as work:
        cluster_dir, store_env = None, {}
        if options.storage == "postgres":
            # Its own directory under /tmp: as root the cluster runs as `postgres`, which must reach it.
            cluster_dir = tempfile.mkdtemp(prefix="pushnode-soak-pg-")
            url = pg_cluster("start", cluster_dir)
            store_env = {"PUSHNODE_STORAGE_DRIVER": "postgres", "PUSHNODE_STORAGE_URL": url,
                         # A killed node's claims come back after the lease: short, or the drain waits.
                         "PUSHNODE_STORAGE_CLAIM_LEASE": "2s"}
        try:
            os.makedirs(os.path.join(work, "mock"))
            with MockProviders(os.path.join(work, "mock")) as mock:
                figures = Soak(options, work).run(mock, store_env, cluster_dir)
        finally:
            if cluster_dir:
                pg_cluster("stop", cluster_dir)
    report(figures)
    if options.json:
        print("SOAK " + json.dumps(figures), flush=True)
    found = failures(figures, options)
    for failure in found:
        print(f"FAIL: {failure}", flush=True)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
