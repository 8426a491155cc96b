"""`pushnode backup --to FILE`: SQLite's online backup of a running node's database while it takes
writes; the copy is opened with Python's sqlite3 and checked (integrity, the rows acknowledged
before the backup started). PostgreSQL is refused with a pointer to pg_dump."""
import json
import os
import sqlite3
import subprocess
import threading

from pushnode_node import Node, wait_for
from test_delivery_e2e import Account, Space

FAST = {"PUSHNODE_RATE_LIMITS_REGISTRATION_PER_MINUTE": "1000000", "PUSHNODE_RATE_LIMITS_REGISTRATION_BURST": "100000"}


def backup(binary, data_dir, to, **env):
    proc = subprocess.run([binary, "backup", "--to", to], capture_output=True, timeout=60,
                          env=dict(os.environ, PUSHNODE_DATA_DIR=data_dir, **env))
    return proc.returncode, proc.stdout, proc.stderr.decode()


def test_a_backup_of_a_node_under_writes_is_whole_and_consistent(pushnode_bin, tmp_path):
    node = Node(pushnode_bin, env=FAST)
    account, space = Account(node), Space()
    acknowledged, stop = [], threading.Event()

    def write():
        while not stop.is_set():
            topic = f"topic-{len(acknowledged):06d}"
            status, answer = account.call("POST", "/v1/subscriptions", {"topics": [space.topic(topic)]})
            assert status == 200, answer
            acknowledged.append(topic)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        wait_for(lambda: len(acknowledged) >= 50, message="writes before the backup")
        before = len(acknowledged)
        target = str(tmp_path / "pushnode-backup.sqlite")
        rc, out, err = backup(pushnode_bin, node.data_dir, target)
        after = len(acknowledged)
        assert rc == 0, err
        report = json.loads(out)
        assert report["backup"] == target and report["pages"] > 0 and report["bytes"] == report["pages"] * 4096
        assert report["alsoKeep"] == [os.path.join(node.data_dir, "vapid.pem")]
        assert not os.path.exists(target + ".partial")
        wait_for(lambda: len(acknowledged) > after + 10, message="writes go on after the backup")

        rc, _, err = backup(pushnode_bin, node.data_dir, target)  # never replaces a file
        assert rc == 2 and "never replaces" in err, err
    finally:
        stop.set()
        writer.join(timeout=30)
        assert node.stop() == 0

    db = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        topics = [row[0] for row in db.execute("SELECT topic FROM subscriptions WHERE account = ? ORDER BY topic",
                                                (account.id,))]
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.close()
    assert {"registrations", "subscriptions", "notifications", "outbox"} <= tables
    # Everything acknowledged before the backup began is in it; nothing that was never written.
    assert before <= len(topics) <= after + 1
    assert topics == sorted(acknowledged[:len(topics)])


def test_backup_refuses_postgres_and_names_pg_dump(pushnode_bin, tmp_path):
    rc, out, err = backup(pushnode_bin, str(tmp_path / "data"), str(tmp_path / "b.sqlite"),
                          PUSHNODE_STORAGE_DRIVER="postgres", PUSHNODE_STORAGE_URL="postgres://u@127.0.0.1:1/db")
    assert (rc, out) == (2, b"") and "pg_dump" in err, err
    assert not os.path.exists(tmp_path / "b.sqlite")
