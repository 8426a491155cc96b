"""The strict command line: unknown commands and options fail (exit 2, with a suggestion) before
anything runs, every command has its own help, `--version` works, network failures name the node,
and SIGHUP never stops `pushnode serve`."""
import os
import re
import signal
import subprocess
import time

import pytest

from conftest import ROOT, run_cli
from pushnode_node import Node, wait_for


def version():
    with open(os.path.join(ROOT, "Sources", "PushSupport", "NodeVersion.swift")) as f:
        return re.search(r'current = "([^"]+)"', f.read()).group(1)


def run_in(binary, directory, *args):
    """Runs the CLI in `directory` with no data-dir override: the default is ./pushnode-data there."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PUSHNODE_")}
    env["PUSHNODE_LISTEN"] = "127.0.0.1:0"  # should it start anyway, never on the real ports
    env["PUSHNODE_ADMIN_LISTEN"] = ""
    proc = subprocess.run([binary, *args], cwd=directory, env=env, capture_output=True, timeout=30)
    return proc.returncode, proc.stdout, proc.stderr.decode()


@pytest.mark.parametrize("command", ["serve", "check"])
def test_a_typo_in_an_option_exits_2_with_a_suggestion_and_creates_nothing(pushnode_bin, tmp_path, command):
    (tmp_path / "config.yaml").write_text("listen: 127.0.0.1:0\n")
    rc, out, err = run_in(pushnode_bin, tmp_path, command, "--conifg", "config.yaml")
    assert (rc, out) == (2, b""), err
    assert "unknown option --conifg" in err and "did you mean --config?" in err
    assert sorted(os.listdir(tmp_path)) == ["config.yaml"]  # no ./pushnode-data, no new VAPID key


def test_typos_in_client_and_key_commands_exit_2(pushnode_bin, tmp_path):
    cases = [
        (["client", "subscriptions", "--acount", "a.key"], "--account"),
        (["client", "notify", "--account", "a.key", "--chta", "c"], "--chat"),
        (["client", "token", "set", "--devcie", "d"], "--device"),
        (["keys", "account", "--ot", "seed"], "--out"),
        (["send", "--platfrom", "android", "--token", "t"], "--platform"),
    ]
    for args, suggestion in cases:
        rc, out, err = run_in(pushnode_bin, tmp_path, *args)
        assert (rc, out) == (2, b""), (args, err)
        assert f"did you mean {suggestion}?" in err, (args, err)
    assert os.listdir(tmp_path) == []


def test_unknown_commands_and_stray_words_exit_2(pushnode_bin):
    rc, out, err = run_cli(pushnode_bin, "serv", check=False)
    assert (rc, out) == (2, b"") and "unknown command 'serv'" in err and "did you mean 'serve'?" in err
    rc, out, err = run_cli(pushnode_bin, "client", "subscripe", check=False)
    assert (rc, out) == (2, b"") and "unknown subcommand 'client subscripe'" in err and "'subscribe'" in err
    rc, out, err = run_cli(pushnode_bin, "serve", "config.yaml", check=False)
    assert (rc, out) == (2, b"") and "unexpected argument 'config.yaml'" in err
    rc, out, err = run_cli(pushnode_bin, "keys", "account", "--out", "a", "--out", "b", check=False)
    assert (rc, out) == (2, b"") and "--out given twice" in err


def test_a_missing_value_or_required_option_names_it(pushnode_bin):
    rc, _, err = run_cli(pushnode_bin, "serve", "--config", check=False)
    assert rc == 2 and "option --config needs a value" in err
    rc, _, err = run_cli(pushnode_bin, "payload", "seal", check=False)
    assert rc == 2 and "missing --key" in err
    rc, _, err = run_cli(pushnode_bin, "keys", "account", "--out=x", "--once", check=False)
    assert rc == 2 and "unknown option --once" in err


def test_version(pushnode_bin):
    for args in (["--version"], ["version"]):
        rc, out, _ = run_cli(pushnode_bin, *args)
        assert out.decode() == f"pushnode {version()}\n"


def test_global_help(pushnode_bin):
    for args in ([], ["help"], ["--help"], ["-h"]):
        _, out, _ = run_cli(pushnode_bin, *args)
        assert out.decode().startswith("usage: pushnode <command> [options]"), args


@pytest.mark.parametrize("command, names", [
    (["serve"], ["--config"]),
    (["check"], ["--config"]),
    (["status"], ["--admin", "--ca-file", "--config"]),
    (["send"], ["--platform", "--token", "--p256dh", "--ttl", "--config"]),
    (["keys", "verify"], ["--public-key", "--account-id", "--space-key", "--signature"]),
    (["client", "notify"], ["--account", "--node", "--space-metadata-key", "--read-key", "--chat", "--mention"]),
    (["client", "token", "set"], ["--device", "--platform", "--token", "--app-id"]),
    (["client", "reconcile"], ["--state", "--once", "--poll-ms"]),
    (["jwt", "vapid"], ["--key", "--aud", "--expires-in"]),
])
def test_each_command_has_its_own_help(pushnode_bin, command, names):
    outputs = [run_cli(pushnode_bin, *command, flag)[1].decode() for flag in ("--help", "-h")]
    outputs.append(run_cli(pushnode_bin, "help", *command)[1].decode())
    for text in outputs:
        assert text.startswith(f"usage: pushnode {' '.join(command)}"), text
        assert not text.startswith("usage: pushnode <command>")
        for name in names:
            assert re.search(rf"^  {re.escape(name)}\b", text, re.M), (name, text)
    assert outputs[0] == outputs[1] == outputs[2]


def test_group_help_lists_the_subcommands(pushnode_bin):
    for args in (["keys", "--help"], ["help", "keys"]):
        text = run_cli(pushnode_bin, *args)[1].decode()
        for sub in ("account", "vapid", "peer", "derive", "sign", "verify"):
            assert re.search(rf"^  {sub}\b", text, re.M), text
    rc, out, err = run_cli(pushnode_bin, "help", "nosuch", check=False)
    assert (rc, out) == (2, b"") and "unknown command 'nosuch'" in err


def test_help_is_a_value_where_a_value_is_expected(pushnode_bin):
    """`--key --help` gives --key the value "--help" (which then is not a key), not the help."""
    rc, out, err = run_cli(pushnode_bin, "payload", "seal", "--key", "--help", check=False)
    assert (rc, out) == (2, b"") and "--key must be standard base64" in err


def test_an_unreachable_node_is_named_with_the_cause(pushnode_bin, tmp_path):
    key = str(tmp_path / "a.key")
    run_cli(pushnode_bin, "client", "account", "new", "--out", key)
    seed = open(key).read().strip()
    for args in (["subscriptions"],
                 ["notify", "--space-metadata-key", "11" * 32, "--read-key", "22" * 32, "--chat", "c", "--text", "t"]):
        rc, out, err = run_cli(pushnode_bin, "client", *args, "--account", key, "--node", "http://127.0.0.1:1",
                               check=False)
        assert (rc, out) == (2, b""), err
        assert "cannot reach the node at http://127.0.0.1:1" in err and "transport.connect_failed" in err, err
        assert "connectFailed" not in err and seed not in err


def test_sighup_is_logged_and_the_node_keeps_serving(pushnode_bin):
    node = Node(pushnode_bin)
    try:
        for count in (1, 2):
            node.proc.send_signal(signal.SIGHUP)
            wait_for(lambda: node.text_log().count("event=sighup") == count, message=f"sighup #{count} logged")
            assert node.proc.poll() is None
            assert node.request("GET", "/healthz")[0] == 200
    finally:
        code = node.stop(cleanup=False)
    assert code == 0, node.text_log()
    log = node.text_log()
    assert "event=shutdown stage=started" in log and "event=shutdown stage=done" in log
    node.dir.cleanup()


def test_help_help_describes_help(pushnode_bin):
    rc, out, err = run_cli(pushnode_bin, "help", "help", check=False)
    assert rc == 0, err
    assert out.decode().startswith("usage: pushnode help [<command> …]\n"), out
    rc, out, err = run_cli(pushnode_bin, "hepl", check=False)
    assert (rc, out) == (2, b"") and "did you mean 'help'?" in err


def command_tree(binary, path=()):
    """Every leaf command, found by following each group's own help ("subcommands:")."""
    text = run_cli(binary, "help", *path)[1].decode() if path else None
    if path and "\nsubcommands:\n" not in text:
        return [path]
    names = (re.findall(r"^  (\S+)   ", text.split("\nsubcommands:\n")[1].split("\n\n")[0], re.M) if path
             else ["serve", "check", "send", "backup", "keys", "payload", "webpush", "jwt", "client", "version", "help"])
    return [leaf for name in names for leaf in command_tree(binary, path + (name,))]


def test_every_commands_help_is_its_own(pushnode_bin):
    leaves = command_tree(pushnode_bin)
    assert len(leaves) > 30, leaves
    usage = run_cli(pushnode_bin, "help")[1].decode()
    texts = {}
    for path in leaves:
        text = run_cli(pushnode_bin, *path, "--help")[1].decode()
        assert text.startswith(f"usage: pushnode {' '.join(path)}"), (path, text)
        assert text == run_cli(pushnode_bin, "help", *path)[1].decode(), path
        texts[path] = text
        assert path[0] in usage, path  # the global list names every command
    assert len(set(texts.values())) == len(texts)  # no two commands share a help text


def test_client_reconcile_ignores_sighup_and_stops_on_sigterm(pushnode_bin, tmp_path):
    key = str(tmp_path / "a.key")
    run_cli(pushnode_bin, "client", "account", "new", "--out", key)
    state = tmp_path / "state.json"
    state.write_text('{"spaces": []}')
    proc = subprocess.Popen([pushnode_bin, "client", "reconcile", "--account", key, "--state", str(state),
                             "--node", "http://127.0.0.1:1", "--poll-ms", "50"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    def ignores_sighup():  # the loop has started: SIGHUP (signal 1, bit 0) is in the ignored mask
        with open(f"/proc/{proc.pid}/status") as f:
            mask = next(line for line in f if line.startswith("SigIgn:")).split()[1]
        return int(mask, 16) & 1
    try:
        wait_for(lambda: proc.poll() is not None or ignores_sighup(), message="reconcile loop started")
        for _ in range(2):
            proc.send_signal(signal.SIGHUP)
            time.sleep(0.3)
            assert proc.poll() is None, proc.stderr.read().decode()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == -signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
