"""Shared fixtures: the pushnode binary under test (PUSHNODE_BIN, set by `make interop`)."""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECTORS = os.path.join(ROOT, "Spec", "vectors")


@pytest.fixture(scope="session")
def pushnode_bin():
    path = os.environ.get("PUSHNODE_BIN") or os.path.join(ROOT, ".build", "release", "pushnode")
    assert os.path.exists(path), f"build pushnode first ({path})"
    return path


def run_cli(binary, *args, stdin=b"", check=True):
    """Runs the CLI; returns (returncode, stdout bytes, stderr text)."""
    proc = subprocess.run([binary, *args], input=stdin, capture_output=True, timeout=60)
    if check and proc.returncode != 0:
        raise AssertionError(f"pushnode {' '.join(args)} failed: {proc.stderr.decode()}")
    return proc.returncode, proc.stdout, proc.stderr.decode()


def cli_json(binary, *args, stdin=b""):
    _, out, _ = run_cli(binary, *args, stdin=stdin)
    return json.loads(out)


# --- Storage drivers -------------------------------------------------------------------------
# Modules that set `RUN_ON_EVERY_STORE = True` run each test once per store: SQLite and PostgreSQL.
# PostgreSQL is the test cluster named by PUSHNODE_TEST_PG_URL (`make test` starts one with
# Tests/pg-cluster.sh and sets it); without it every PostgreSQL test fails, never skips.
# In postgres mode every test gets a fresh database, and the nodes it starts find it through
# PUSHNODE_STORAGE_DRIVER / PUSHNODE_STORAGE_URL in their environment.
PG_URL = os.environ.get("PUSHNODE_TEST_PG_URL", "")
STORE_DRIVERS = ["sqlite", "postgres"]
PG_MISSING = ("PUSHNODE_TEST_PG_URL is unset: run the tests with `make test` (it starts a throwaway "
              "PostgreSQL cluster), or start one with `Tests/pg-cluster.sh start DIR` and set "
              "PUSHNODE_TEST_PG_URL to the URL it prints")


def require_pg_url():
    """Fails the calling test (never skips it) when no PostgreSQL test cluster is configured."""
    if not PG_URL:
        pytest.fail(PG_MISSING, pytrace=False)


def psql(url, sql):
    """Runs one SQL command with the cluster's psql; returns its unaligned output."""
    import glob
    import shutil
    binary = shutil.which("psql") or sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
    proc = subprocess.run([binary, url, "-qAtc", sql], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise AssertionError(f"psql failed: {proc.stderr}")
    return proc.stdout


def database_url(name):
    """PG_URL with its database replaced by `name`."""
    from urllib.parse import urlsplit, urlunsplit
    parts = urlsplit(PG_URL)
    return urlunsplit(parts._replace(path="/" + name))


class PostgresDatabase:
    """A fresh database on the test cluster, dropped (with its connections) on `drop`."""

    def __init__(self):
        import uuid
        require_pg_url()
        self.name = "t_" + uuid.uuid4().hex
        psql(PG_URL, f"CREATE DATABASE {self.name}")
        self.url = database_url(self.name)

    def drop(self):
        psql(PG_URL, f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")

    def env(self):
        return {"PUSHNODE_STORAGE_DRIVER": "postgres", "PUSHNODE_STORAGE_URL": self.url}


@pytest.fixture(autouse=True)
def node_storage(request, monkeypatch):
    """The store the test's nodes use ("sqlite" unless parametrized by `pytest_generate_tests`)."""
    driver = getattr(request, "param", "sqlite")
    if driver != "postgres":
        yield driver
        return
    database = PostgresDatabase()
    for key, value in database.env().items():
        monkeypatch.setenv(key, value)
    yield driver
    database.drop()


def pytest_generate_tests(metafunc):
    if "node_storage" in metafunc.fixturenames and getattr(metafunc.module, "RUN_ON_EVERY_STORE", False):
        metafunc.parametrize("node_storage", STORE_DRIVERS, indirect=True)


@pytest.fixture
def postgres_database():
    """A fresh database for tests that start several nodes on one store themselves."""
    database = PostgresDatabase()
    yield database
    database.drop()
