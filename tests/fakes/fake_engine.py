"""A misbehaving UCI engine for the proxy's fault tests.

usage: fake_engine.py MODE
  crash        dies by SIGSEGV in the middle of a search
  hang         never answers isready or go, ignores quit and SIGTERM
  garbage      answers go with invalid UTF-8, a 1 MiB line, CRLF endings
  wrongcastle  declares UCI_Chess960 but writes castles as king-two-squares
               (first go), then an illegal move (second go)
"""
import os
import signal
import sys

MODE = sys.argv[1]
out = sys.stdout.buffer


def say(line: bytes):
    out.write(line + b"\n")
    out.flush()


if MODE == "hang":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

goes = 0
for raw in sys.stdin.buffer:
    cmd = raw.split()
    if not cmd:
        continue
    word = cmd[0]
    if word == b"uci":
        say(b"id name Fake " + MODE.encode())
        say(b"id author uci960 tests")
        say(b"option name UCI_Chess960 type check default false")
        say(b"uciok")
    elif word == b"isready":
        if MODE != "hang":
            say(b"readyok")
    elif word == b"quit":
        if MODE != "hang":
            break
    elif word == b"go":
        goes += 1
        if MODE == "crash":
            say(b"info depth 1 score cp 10 pv e2e4")
            os.kill(os.getpid(), signal.SIGSEGV)
        elif MODE == "garbage":
            say(b"info string \xff\xfe not utf-8")
            say(b"info string " + b"x" * (1 << 20))
            out.write(b"info depth 1 pv e2e4\r\n")
            say(b"")
            say(b"\x00\x01 random bytes")
            out.write(b"bestmove e2e4\r\n")
            out.flush()
        elif MODE == "wrongcastle":
            say(b"bestmove e1c1" if goes == 1 else b"bestmove e2e5")
