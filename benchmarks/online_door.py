"""The online host's door under strangers: idle sockets, wrong codes and a flood of illegal
moves against a real ``shashki host --auto`` process on 127.0.0.1, and what the friend (at
another address) meets meanwhile.

    python benchmarks/online_door.py [--idle 1100] [--moves 20000] [--seconds 10]

It prints, for each attack: how many of the stranger's sockets the host still holds a
moment later, the host's CPU time over ``--seconds`` while they are held (from
/proc/PID/stat: this machine's other work does not count), the friend's time to join and
whether it got in, and the host's resident memory before and after.  Only addresses of
127.0.0.0/8 are used (another address of that range is another machine to the host).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shashki.online.guest import Guest
from shashki.online.protocol import encode

sys.path.insert(0, str(ROOT))
from tests.online.harness import Raw

STRANGER = "127.0.0.3"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def friend_joins(address: str, code: str) -> tuple[bool, float]:
    start = time.monotonic()
    guest = Guest(address, code, "Friend")
    try:
        await guest.connect()
    except Exception as exc:
        print(f"    the friend could not join: {exc}")
        return False, time.monotonic() - start
    finally:
        await guest.close()
    return True, time.monotonic() - start


Socket = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def idle_sockets(port: int, count: int) -> list[Socket]:
    sockets = []
    for _ in range(count):
        try:
            sockets.append(
                await asyncio.open_connection("127.0.0.1", port, local_addr=(STRANGER, 0))
            )
        except OSError:
            continue
    return sockets


async def held(sockets: list[Socket]) -> int:
    """How many the host has not closed, half a second later."""
    await asyncio.sleep(0.5)
    return sum(1 for r, w in sockets if not r.at_eof() and not w.transport.is_closing())


async def main(args: argparse.Namespace) -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "shashki", "host", "russian", "--port", "0", "--local",
         "--auto", "1", "--name", "Host"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env=dict(os.environ, LANGUAGE="en"),
    )  # fmt: skip
    assert host.stdout is not None
    address = code = ""
    for line in host.stdout:
        found = re.search(r"shashki join (\S+) (\S+)", line)
        if found:
            address, code = found.groups()
            break
    port = int(address.split(":")[1])
    try:
        print(f"host pid {host.pid} on {address}; resident {rss_mb(host.pid):.0f} MB")

        print(f"\n{args.idle} idle sockets from {STRANGER}")
        before = cpu_seconds(host.pid)
        sockets = await idle_sockets(port, args.idle)
        print(f"    opened {len(sockets)}; the host still holds {await held(sockets)}")
        ok, took = await friend_joins(address, code)
        print(f"    the friend joins: {'yes' if ok else 'no'} in {took:.2f} s")
        await asyncio.sleep(args.seconds)
        used = cpu_seconds(host.pid) - before
        share = 100 * used / args.seconds
        print(f"    host CPU over {args.seconds:.0f} s: {used:.2f} s ({share:.1f}%)")
        for _r, w in sockets:
            w.close()

        print(f"\nwrong codes from {STRANGER}, 20 connections one after the other")
        answers: dict[str, int] = {}
        for _ in range(20):
            raw = await Raw.open(address, STRANGER)
            answer = await raw.handshake("AAAA-AA")
            key = answer.get("text", answer.type).split(":")[0]
            answers[key] = answers.get(key, 0) + 1
            await raw.close()
        print(f"    answers: {answers}")
        ok, took = await friend_joins(address, code)
        print(f"    the friend joins: {'yes' if ok else 'no'} in {took:.2f} s")

        print(f"\n{args.moves} illegal moves for the ply from a guest with the code")
        raw = await Raw.joined(address, code, "Mallory")
        assert raw.line is not None
        before_cpu, before_rss = cpu_seconds(host.pid), rss_mb(host.pid)
        start = time.monotonic()
        sent = 0
        try:
            for i in range(args.moves):
                move = encode("move", ply=1, move=f"h6-{'abcdefgh'[i % 8]}3")
                await raw.ws.send_bytes(raw.line.seal(move))
                sent += 1
        except Exception:
            pass
        took = time.monotonic() - start
        print(f"    sent {sent} in {took:.2f} s (the host cuts the connection on the way)")
        await raw.close()
        ok, took = await friend_joins(address, code)
        print(f"    the friend joins: {'yes' if ok else 'no'} in {took:.2f} s")
        print(
            f"    host CPU for it: {cpu_seconds(host.pid) - before_cpu:.2f} s; resident "
            f"{before_rss:.0f} -> {rss_mb(host.pid):.0f} MB"
        )
    finally:
        host.kill()
        host.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=1100)
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--seconds", type=float, default=10.0)
    asyncio.run(main(parser.parse_args()))
