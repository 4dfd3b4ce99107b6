"""The live-sync harness's own bookkeeping (Benchmarks/server/live.py's
`Client.take`, which live-swarm's `ClientState.take` follows step by step):
what it counts as seen decides whether row 8's and row 12's kill tests
report a client as converged."""

import importlib.util

from conftest import ROOT

spec = importlib.util.spec_from_file_location("live", ROOT / "Benchmarks" / "server" / "live.py")
live = importlib.util.module_from_spec(spec)
spec.loader.exec_module(live)


def change(revision, key):
    return {"type": "changes", "revision": revision, "key": key, "changes": []}


def test_its_own_change_in_a_backlog_counts_as_seen():
    """Its batch was committed by a server killed before it acknowledged it: the
    backlog the next server sends after hello holds it, in order, before welcome."""
    client = live.Client([1], "d", 0, 10, False)
    client.pending["c0-1"] = 7
    for revision in (1, 2):
        client.take(change(revision, "c9-1"), 0)
    # Reconnected (hello said since 2): the backlog, before welcome.
    client.take(change(3, "c0-1"), 0)  # its own, committed, never acknowledged
    client.take(change(4, "c9-2"), 0)
    client.joined = True  # welcome
    client.take({"type": "ack", "key": "c0-1", "revision": 3}, 0)  # sent again after welcome: known
    assert client.seen == [1, 2, 3, 4]
    assert client.acked == {"c0-1": (7, 3)}
    assert client.last == 4


def test_an_ack_before_welcome_does_not_move_it_on():
    """After a reset the backlog from the document brings every revision; an
    ack still on its way from before it does not count as seen."""
    client = live.Client([1], "d", 0, 10, False)
    client.pending["c0-1"] = 7
    client.joined = False
    client.take({"type": "ack", "key": "c0-1", "revision": 5}, 0)
    assert client.seen == []
    assert client.last == 0
    assert client.acked == {"c0-1": (7, 5)}
