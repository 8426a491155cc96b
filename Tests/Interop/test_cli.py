from conftest import run_cli


def test_unknown_command_exits_2_with_message_on_stderr(pushnode_bin):
    rc, out, err = run_cli(pushnode_bin, "no-such-command", check=False)
    assert rc == 2
    assert out == b""
    assert "unknown command" in err
