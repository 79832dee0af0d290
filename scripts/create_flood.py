#!/usr/bin/env python3
"""The create-game flood of issue 21: many clients POST /api/game with four
level-9 bots for a while, against an `acedrex serve` started with the default
limits in an empty temporary folder (nothing but --port). Prints the server's
memory (VmRSS and VmHWM from /proc/PID/status) before, during and after, and
the statuses the clients got.

  python3 scripts/create_flood.py build/release/acedrex [--seconds 60] [--clients 64] [--addresses 200]

Each request comes from one of --addresses loopback addresses (127.0.1.x:
Linux routes all of 127/8 to the loopback), so the per-client limits and the
limit on open games in all are both reached. Not a test: the figures depend
on the machine.
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "Threads"):
                fields[key] = value.strip()
    return fields


def mib(text):
    return int(text.split()[0]) / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--after", type=float, default=30, help="seconds to watch after the flood")
    ap.add_argument("--clients", type=int, default=64, help="client threads")
    ap.add_argument("--addresses", type=int, default=200, help="loopback source addresses (1..250)")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    body = json.dumps({"variant": "four-seasons", "seats": [{"kind": "bot", "level": 9}] * 4})

    folder = tempfile.mkdtemp(prefix="acedrex-flood-")
    server = subprocess.Popen([binary, "serve", "--port", "0"], cwd=folder, stdout=subprocess.PIPE,
                              stderr=open(os.path.join(folder, "serve.err"), "w"), text=True)
    port = 0
    for line in server.stdout:
        if line.startswith("port "):
            port = int(line.split()[1])
            break
    if not port:
        print("the server did not start", file=sys.stderr)
        return 1
    pid = server.pid
    samples = []

    def sample(phase):
        m = memory(pid)
        samples.append((time.monotonic(), phase, mib(m["VmRSS"]), mib(m["VmHWM"]), m["Threads"]))

    statuses, codes, lock = {}, {}, threading.Lock()
    sent = [0]
    stop = threading.Event()
    start = time.monotonic()

    def client(n):
        i = 0
        while not stop.is_set():
            address = f"127.0.1.{1 + (n + i * args.clients) % args.addresses}"
            i += 1
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(address, 0))
                c.request("POST", "/api/game", body, {"Content-Type": "application/json"})
                r = c.getresponse()
                text = r.read()
                c.close()
                status = r.status
                code = ""
                if status != 201:
                    try:
                        code = json.loads(text).get("code", "")
                    except ValueError:
                        code = "not-json"
            except (OSError, http.client.HTTPException) as e:
                status, code = 0, type(e).__name__
            with lock:
                sent[0] += 1
                statuses[status] = statuses.get(status, 0) + 1
                if code:
                    codes[(status, code)] = codes.get((status, code), 0) + 1

    sample("before")
    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(args.clients)]
    for t in threads:
        t.start()
    while time.monotonic() - start < args.seconds:
        time.sleep(5)
        sample("during")
    stop.set()
    for t in threads:
        t.join()
    flood_end = time.monotonic()
    while time.monotonic() - flood_end < args.after:
        time.sleep(5)
        sample("after")
    alive = server.poll() is None
    games = None
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/api/games?status=ongoing&limit=1")
        r = c.getresponse()
        r.read()
        games = r.status
    except OSError:
        pass

    print(f"server: {binary} serve --port {port} (default limits), in {folder}")
    for t, phase, rss, hwm, threads_ in samples:
        print(f"  t={t - start:6.1f}s {phase:6s} VmRSS {rss:7.1f} MiB  VmHWM {hwm:7.1f} MiB  threads {threads_}")
    print(f"requests: {sent[0]} in {flood_end - start:.1f}s from {args.clients} clients on {args.addresses} addresses")
    print("statuses: " + ", ".join(f"{s or 'none'}: {n}" for s, n in sorted(statuses.items())))
    print("refusals: " + ", ".join(f"{s} {c}: {n}" for (s, c), n in sorted(codes.items())))
    print(f"server still running: {alive}; GET /api/games after: {games}")
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    shutil.rmtree(folder, ignore_errors=True)
    return 0 if alive else 1


if __name__ == "__main__":
    sys.exit(main())
