#!/usr/bin/env bash
# A real scheduler in the tests (issue 22, docs/DISTRIBUTED.md): a
# single-node Slurm cluster on this machine runs `uci960 match --shard auto
# --dir RUN/` as a 4-task array job; `uci960 merge` must give the games and
# standings of one single-machine run with the same seed. Then one task is
# cancelled with scancel in mid-run and requeued: the result is the same;
# submitted anew on its own (--array=2), it is refused.
#
# Needs root (it installs slurm-wlm and munge with apt-get and runs the
# daemons as root, as CI does). Everything of Slurm and munge lives under a
# temporary directory (private slurm.conf through SLURM_CONF, private munge
# key and socket, free ports): nothing of the machine's is touched, and the
# daemons it started are stopped on exit. Ends with `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

passed=0
failed=0
check() { # check NAME COMMAND...: one counted check
  local name=$1
  shift
  if "$@"; then
    echo "ok: $name"
    passed=$((passed + 1))
  else
    echo "FAILED: $name"
    failed=$((failed + 1))
  fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

if [ "$(id -u)" -ne 0 ]; then
  if [ "${UCI960_ALLOW_SKIP:-}" = 1 ] && [ "${CI:-}" != true ]; then
    echo "skipped: scripts/test-slurm.sh needs root (it runs slurmctld and slurmd)"
    exit 0
  fi
  echo "scripts/test-slurm.sh needs root (it installs slurm-wlm and runs its daemons)"
  failed=1
  finish
fi

need=()
command -v slurmctld >/dev/null || need+=(slurm-wlm)
command -v munged >/dev/null || need+=(munge)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  # The packages' own services may not start here (no init): that is fine,
  # this script starts its own daemons.
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >/dev/null || true
fi
check "slurm-wlm and munge installed" command -v slurmctld slurmd sbatch munged
command -v slurmctld >/dev/null && command -v munged >/dev/null || finish

# UCI960_BIN: a binary already built (else the debug build, built here).
bin=${UCI960_BIN:-}
if [ -z "$bin" ]; then
  cargo build --locked -q || { failed=$((failed + 1)); finish; }
  bin=$root/target/debug/uci960
fi

t=$(mktemp -d /tmp/uci960-slurm.XXXXXX)
chmod 755 "$t" # munged runs as the munge user and must reach its directory
pids=()
stop_daemons() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  [ -f "$t/munge/munged.pid" ] && kill "$(cat "$t/munge/munged.pid")" 2>/dev/null
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$t"
}
trap stop_daemons EXIT

# munge: a private key and socket, run as the munge user.
mkdir -p "$t/munge"
head -c 1024 /dev/urandom >"$t/munge/munge.key"
chown -R munge:munge "$t/munge" && chmod 700 "$t/munge" && chmod 400 "$t/munge/munge.key"
runuser -u munge -- munged --force --key-file="$t/munge/munge.key" --socket="$t/munge/munge.sock" \
  --pid-file="$t/munge/munged.pid" --log-file="$t/munge/munged.log" --seed-file="$t/munge/munged.seed"
check "munged started" test -S "$t/munge/munge.sock"

# Two free TCP ports for slurmctld and slurmd.
read -r ctld_port d_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname)
mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
mkdir -p "$t/state" "$t/spool" "$t/log" "$t/jobs"
export SLURM_CONF=$t/slurm.conf
# No cgroup.conf: with CgroupPlugin=disabled slurmd refuses to start;
# linuxproc and task/none need no cgroups.
cat >"$SLURM_CONF" <<CONF
ClusterName=uci960test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$t/munge/munge.sock
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/log/slurmctld.log
SlurmdLogFile=$t/log/slurmd.log
MpiDefault=none
ReturnToService=2
KillWait=10
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i >"$t/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D >"$t/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() {
  for _ in $(seq 120); do
    case "$(sinfo -h -o %t 2>/dev/null)" in idle*) return 0 ;; esac
    sleep 0.5
  done
  return 1
}
check "slurmctld and slurmd up, the node idle" node_idle || {
  tail -20 "$t"/log/*
  finish
}

# The tournament: the built-in engine, short games, fixed depths (the same
# games every run), 24 games = 12 pairs over 4 shards (6 games each).
args=(--engine name=a depth=1 --engine name=b depth=2 --games 24 --seed 960
  --random-plies 2 --maxmoves 30 --restart on)
single_started=$(date +%s.%N)
"$bin" match "${args[@]}" --pgn "$t/single.pgn" --json "$t/single.json" >"$t/single.out" 2>&1
check "single-machine run" test -s "$t/single.json"

job_script() { # the batch script: exec, so that scancel's SIGTERM reaches uci960
  printf '#!/bin/bash\nexec %q match' "$bin"
  printf ' %q' "${args[@]}" --shard auto --dir "$1"
  printf '\n'
}
submit() { # submit RUN ARRAY → job id
  job_script "$1" >"$t/jobs/job.sh"
  sbatch --parsable --array="$2" --chdir="$t" --output="$t/jobs/%A_%a.out" "$t/jobs/job.sh" | cut -d';' -f1
}
wait_job() { # wait_job ID: until no task of it is queued or running (bounded)
  for _ in $(seq 900); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  return 1
}
games_in() { # games recorded in a state file (cheap enough to poll)
  local n
  n=$(grep -o '"number"' "$1" 2>/dev/null | wc -l)
  echo "${n:-0}"
}

same_games() { # same_games A.pgn B.pgn: the same set of (Round, White, Black, FEN, moves)
  python3 - "$1" "$2" <<'PY'
import re, sys
def games(path):
    out = set()
    for block in re.split(r"\n\n(?=\[Event )", open(path).read()):
        if not block.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        moves = re.sub(r"\{[^}]*\}", " ", block.split("\n\n", 1)[1] if "\n\n" in block else "")
        moves = " ".join(t for t in moves.split() if not re.match(r"^\d+\.+$", t))
        out.add((int(tags["Round"]), tags["White"], tags["Black"], tags["FEN"], moves))
    return out
a, b = games(sys.argv[1]), games(sys.argv[2])
if a != b or not a:
    print(f"{len(a)} games vs {len(b)}; differ: {sorted(r[0] for r in a ^ b)}")
    sys.exit(1)
PY
}
same_standings() { # same_standings A.json B.json
  python3 - "$1" "$2" <<'PY'
import json, sys
keys = ["games", "engines", "pairings", "terminations", "seed"]
a, b = (json.load(open(p)) for p in sys.argv[1:])
bad = [k for k in keys if a.get(k) != b.get(k)]
if bad:
    print("standings differ in", bad)
    sys.exit(1)
PY
}

# 1. Four shards as an array job, merged.
job=$(submit "$t/run1" 1-4)
check "array job submitted ($job)" test -n "$job"
check "array job finished" wait_job "$job"
check "every task wrote its shard" test "$(ls "$t"/run1/shard-*-of-4.state.json 2>/dev/null | wc -l)" -eq 4
merge_started=$(date +%s.%N)
"$bin" merge "$t/run1" --pgn "$t/merged1.pgn" --json "$t/merged1.json" >"$t/merge1.out" 2>&1
check "merge of the 4 shards exits 0" test $? -eq 0
check "merged games = single-machine games" same_games "$t/single.pgn" "$t/merged1.pgn"
check "merged standings = single-machine standings" same_standings "$t/single.json" "$t/merged1.json"

# 2. Task 2 cancelled after its first game, then resubmitted.
job=$(submit "$t/run2" 1-4)
for _ in $(seq 6000); do
  [ "$(games_in "$t/run2/shard-2-of-4.state.json")" -ge 1 ] && break
  sleep 0.05
done
scancel "${job}_2"
check "array job with a cancelled task finished" wait_job "$job"
kept=$(games_in "$t/run2/shard-2-of-4.state.json")
check "the cancelled shard kept its finished games ($kept)" test "$kept" -ge 1
check "it was cancelled in mid-run (before its 6th game)" test "$kept" -lt 6
"$bin" merge "$t/run2" >"$t/merge2a.out" 2>&1
code=$?
if [ "$kept" -lt 6 ]; then
  check "merge before the resubmission is partial (exit 1)" test $code -eq 1
  check "and names the unfinished shard" grep -q "shard 2/4: unfinished" "$t/merge2a.out"
fi
# Requeued as a scheduler does after preemption: the task keeps its
# array variables, so `--shard auto` is shard 2/4 again.
scontrol requeue "${job}_2"
check "requeued task finished" wait_job "$job"
check "the resubmitted task resumed" grep -q "resuming: $kept of 6 games already played" "$t/jobs/${job}_2.out"
"$bin" merge "$t/run2" --pgn "$t/merged2.pgn" --json "$t/merged2.json" >"$t/merge2.out" 2>&1
check "merge after the resubmission exits 0" test $? -eq 0
check "games after scancel + resubmit = single-machine games" same_games "$t/single.pgn" "$t/merged2.pgn"
check "standings after scancel + resubmit = single-machine standings" same_standings "$t/single.json" "$t/merged2.json"

# 3. Task 2 submitted anew on its own (`sbatch --array=2`): Slurm gives it
# MIN 2 and COUNT 1, so `--shard auto` is 1/1; the run directory holds
# shards of 4, so the task must be refused (exit 2) and write nothing.
before=$(ls -l --time-style=+%s.%N "$t/run2" | md5sum)
job=$(submit "$t/run2" 2)
check "resubmitted task ran" wait_job "$job"
check "a task submitted anew as --array=2 is refused, naming scontrol requeue" \
  grep -q "holds shards of 4.*scontrol requeue" "$t/jobs/${job}_2.out"
check "and left the run directory as it was" test "$(ls -l --time-style=+%s.%N "$t/run2" | md5sum)" = "$before"

if [ "$failed" -gt 0 ]; then
  echo "--- logs"
  tail -n 15 "$t"/log/*.log "$t"/jobs/*.out "$t"/merge*.out 2>/dev/null
fi
finish
