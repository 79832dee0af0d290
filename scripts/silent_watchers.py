#!/usr/bin/env python3
"""The silent-spectator case of issue 21: a game of 200 plies, ten NDJSON
stream clients that never read (small receive buffers), then thousands of draw
offers and declines (each one a change every subscriber is sent). Prints the
server's VmRSS before the watchers, after the changes, and after the watchers
are gone. Before the fix each silent client held its own copy of every state
(about 42 MB each); now a change is one shared message and each queue is
bounded in bytes.

  python3 scripts/silent_watchers.py build/release/acedrex [--watchers 10] [--rounds 4000] [--plies 200]
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


class Client:
    def __init__(self, port):
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        self.c.request(method, path, body, headers)
        r = self.c.getresponse()
        text = r.read()
        return r.status, (json.loads(text) if text else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--watchers", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=4000, help="draw offer/decline pairs")
    ap.add_argument("--plies", type=int, default=200)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="acedrex-silent-")
    # No request-rate limit: this measures the queues, not the limiter.
    server = subprocess.Popen([os.path.abspath(args.binary), "serve", "--port", "0", "--address", "127.0.0.1",
                               "--max-requests-per-second", "0", "--access-log", "off"], cwd=folder,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = 0
    for line in server.stdout:
        if line.startswith("port "):
            port = int(line.split()[1])
            break
    try:
        c = Client(port)
        rng = random.Random(7)
        game = None
        while game is None:
            st, g = c.call("POST", "/api/game", json.dumps({"variant": "grant-acedrex"}))
            tokens = [s["token"] for s in g["seats"]]
            gid = g["id"]
            for ply in range(args.plies):
                st, state = c.call("GET", f"/api/game/{gid}")
                moves = [m for ms in state.get("legal", {}).values() for m in ms]
                if state["status"] != "ongoing" or not moves:
                    break
                c.call("POST", f"/api/game/{gid}/move/{rng.choice(moves)}", "", tokens[ply % 2])
            else:
                game = gid
        st, state = c.call("GET", f"/api/game/{game}")
        state_bytes = len(json.dumps(state))
        base = rss_mib(server.pid)
        watchers = []
        for _ in range(args.watchers):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            s.sendall(f"GET /api/game/{game}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            watchers.append(s)
        # Each is subscribed (its reply's status line), then reads nothing more.
        subscribed = sum(1 for s in watchers if s.recv(12, socket.MSG_WAITALL) == b"HTTP/1.1 200")
        time.sleep(1)
        with_watchers = rss_mib(server.pid)
        # Whose turn it is decides who offers: the side to move offers, the other declines.
        offer, decline = tokens[args.plies % 2], tokens[(args.plies + 1) % 2]
        refused = 0
        for _ in range(args.rounds):
            a, _ = c.call("POST", f"/api/game/{game}/draw/offer", "", offer)
            b, _ = c.call("POST", f"/api/game/{game}/draw/decline", "", decline)
            refused += (a != 200) + (b != 200)
        time.sleep(1)
        after_changes = rss_mib(server.pid)
        for s in watchers:
            s.close()
        time.sleep(2)
        after_close = rss_mib(server.pid)
        st, _ = c.call("GET", f"/api/game/{game}")
        print(f"game {game}: {len(state['moves'])} plies, state {state_bytes} bytes; {subscribed} of {args.watchers} silent watchers subscribed; "
              f"{args.rounds} draw offer/decline pairs ({refused} refused)")
        print(f"VmRSS: {base:.1f} MiB before the watchers, {with_watchers:.1f} with them, {after_changes:.1f} after "
              f"the changes (+{after_changes - with_watchers:.1f}), {after_close:.1f} after they left; "
              f"the game still answers: {st}")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
