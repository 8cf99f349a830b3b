"""Fake engine: declares UCI_Chess960, then dies (exit status 3) at its
first `go`, as a crashing engine does. Used to check that the suite reports
the crash and does not hang."""

import sys

for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name CrashOnGo")
        print("option name UCI_Chess960 type check default false")
        print("uciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "go":
        sys.exit(3)
    elif cmd[0] == "quit":
        break
