#!/usr/bin/env python3
"""An independent check of uci960's SPRT log-likelihood ratios (issue 26).

uci960 computes the generalized SPRT's LLR as fastchess and fishtest do:
the maximum-likelihood distributions of the game-pair (pentanomial) or
game (W/D/L) outcomes under H0 and H1, found by bisection on a secular
equation and, for normalized Elo, a fixed-point iteration (M. Van den
Bergh, "Comments on Normalized Elo"). This script recomputes them from the
definitions only, by another route, with the standard library:

* every constrained maximum likelihood is an empirical-likelihood problem,
  max sum(p^_i ln p_i) subject to sum(p_i g_i) = 0: p_i = p^_i / (1 + l.g_i)
  with l the maximiser of the concave sum(p^_i ln(1 + l.g_i)), found by
  damped Newton steps (one or two multipliers);
* logistic Elo: the mean score is s(elo) = 1 / (1 + 10^(-elo/400));
* normalized Elo: (mu - 1/2) / sigma = t, t = nElo / (800 / ln 10) for
  games and sqrt(2) times that for pairs; solved as a profile likelihood:
  for each mean mu the two-moment problem (mean mu, variance
  ((mu - 1/2) / t)^2), maximised over mu by a grid and golden sections
  (no fixed point);
* BayesElo (games only): drawelo = 200 log10((1-L)/L (1-W)/W) from the
  frequencies, the score W + D/2 of the BayesElo model at elo0 and elo1,
  then the mean-score problem;
* LLR = N sum(p^_i ln(p1_i / p0_i)); as fastchess, an empty cell counts
  0.001 (N included) and BayesElo's LLR is 0 until both sides have won.

Usage:
  sprt_llr.py check DOC.json [STDOUT.txt]
      every pairing with an SPRT in a `match --json` / `merge --json`
      document: its llr against this computation (and the 2-decimal LLR
      of the text output, if given).
  sprt_llr.py run UCI960 WORKDIR
      plays short real matches (the built-in engine) under each model,
      then merges crafted state files holding large tables (fastchess's
      published ones among them), and checks every LLR printed.
Prints one line per comparison and `N checked, N failed`; exit 1 on any
difference beyond 1e-6 (relative, at least 1e-6 absolute).
"""

import json
import math
import os
import re
import subprocess
import sys

PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]
GAME_SCORES = [0.0, 0.5, 1.0]
NELO_PER_T = 800.0 / math.log(10.0)


def regularised(counts):
    c = [x if x > 0 else 1e-3 for x in counts]
    total = sum(c)
    return [x / total for x in c], total


def solve2(h, g):
    """Solves the 2x2 (or 1x1) system h x = g."""
    if len(g) == 1:
        return [g[0] / h[0][0]]
    det = h[0][0] * h[1][1] - h[0][1] * h[1][0]
    return [(g[0] * h[1][1] - g[1] * h[0][1]) / det, (h[0][0] * g[1] - h[1][0] * g[0]) / det]


def el_mle(phat, constraints):
    """The distribution maximising sum(phat ln p) with sum(p g_k) = 0 for
    each constraint vector g_k; None when infeasible."""
    k = len(constraints)
    n = len(phat)
    g = [[constraints[j][i] for j in range(k)] for i in range(n)]

    def value(lam):
        total = 0.0
        for i in range(n):
            d = 1.0 + sum(lam[j] * g[i][j] for j in range(k))
            if d <= 0.0:
                return None
            total += phat[i] * math.log(d)
        return total

    lam = [0.0] * k
    f = value(lam)
    for _ in range(500):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for i in range(n):
            d = 1.0 + sum(lam[j] * g[i][j] for j in range(k))
            for a in range(k):
                grad[a] += phat[i] * g[i][a] / d
                for b in range(k):
                    hess[a][b] += phat[i] * g[i][a] * g[i][b] / (d * d)
        if max(abs(x) for x in grad) < 1e-16:
            break
        try:
            step = solve2(hess, grad)  # Newton: lam + H^-1 grad (H = -hess)
        except ZeroDivisionError:
            return None
        shrink = 1.0
        while True:
            cand = [lam[j] + shrink * step[j] for j in range(k)]
            fc = value(cand)
            # Near the maximum f moves by rounding only: any step inside
            # the domain that does not clearly lower f is a Newton step.
            if fc is not None and fc >= f - 1e-12 * max(1.0, abs(f)):
                break
            shrink /= 2.0
            if shrink < 1e-30:
                cand = None
                break
        if cand is None:
            break
        moved = max(abs(cand[j] - lam[j]) for j in range(k))
        lam, f = cand, fc
        if moved <= 1e-15 * max(1.0, max(abs(x) for x in lam)):
            break
    p = [phat[i] / (1.0 + sum(lam[j] * g[i][j] for j in range(k))) for i in range(n)]
    # Infeasible constraints show as a solution that does not meet them.
    for j in range(k):
        if abs(sum(p[i] * g[i][j] for i in range(n))) > 1e-9:
            return None
    if abs(sum(p) - 1.0) > 1e-9 or min(p) <= 0.0:
        return None
    return p


def loglik(phat, p):
    return sum(a * math.log(b) for a, b in zip(phat, p))


def mle_mean(scores, phat, s):
    return el_mle(phat, [[a - s for a in scores]])


def mle_t(scores, phat, t):
    """Max likelihood with (mu - 1/2) / sigma = t, as a profile over mu."""
    if t == 0.0:
        return mle_mean(scores, phat, 0.5)

    def at(mu):
        v = ((mu - 0.5) / t) ** 2
        # Feasible with every p_i > 0: between the two-neighbour variance
        # and the end-point variance of that mean.
        hi = (mu - scores[0]) * (scores[-1] - mu)
        lo = 0.0
        for a, b in zip(scores, scores[1:]):
            if a <= mu <= b:
                lo = (mu - a) * (b - mu)
        if not lo < v < hi:
            return None, None
        p = el_mle(phat, [[a - mu for a in scores], [(a - mu) ** 2 - v for a in scores]])
        return (loglik(phat, p), p) if p else (None, None)

    a, b = (0.5, scores[-1]) if t > 0 else (scores[0], 0.5)
    steps = 4000
    grid = [a + (b - a) * i / steps for i in range(1, steps)]
    best = None
    for i, mu in enumerate(grid):
        ll, _ = at(mu)
        if ll is not None and (best is None or ll > best[0]):
            best = (ll, i)
    if best is None:
        return None
    i = best[1]
    lo = grid[i - 1] if i > 0 else a
    hi = grid[i + 1] if i + 1 < len(grid) else b
    ratio = (math.sqrt(5.0) - 1.0) / 2.0

    def score(mu):
        ll, _ = at(mu)
        return -math.inf if ll is None else ll

    x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    f1, f2 = score(x1), score(x2)
    for _ in range(200):
        if f1 >= f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - ratio * (hi - lo)
            f1 = score(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + ratio * (hi - lo)
            f2 = score(x2)
        if hi - lo < 1e-15:
            break
    return at((lo + hi) / 2.0)[1]


def logistic_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def bayeselo_score(elo, draw_elo):
    win = 1.0 / (1.0 + 10.0 ** ((-elo + draw_elo) / 400.0))
    loss = 1.0 / (1.0 + 10.0 ** ((elo + draw_elo) / 400.0))
    return win + 0.5 * (1.0 - win - loss)


def llr(model, elo0, elo1, wdl, penta):
    """The LLR uci960 should report: pairs for normalized and logistic,
    games for bayeselo."""
    if model == "bayeselo":
        w, d, l = wdl
        if w + d + l == 0 or w == 0 or l == 0:
            return 0.0
        phat, total = regularised([l, d, w])
        draw_elo = 200.0 * math.log10((1 - phat[0]) / phat[0] * (1 - phat[2]) / phat[2])
        p0 = mle_mean(GAME_SCORES, phat, bayeselo_score(elo0, draw_elo))
        p1 = mle_mean(GAME_SCORES, phat, bayeselo_score(elo1, draw_elo))
    else:
        if sum(penta) == 0:
            return 0.0
        phat, total = regularised(penta)
        if model == "logistic":
            p0 = mle_mean(PAIR_SCORES, phat, logistic_score(elo0))
            p1 = mle_mean(PAIR_SCORES, phat, logistic_score(elo1))
        elif model == "normalized":
            t = lambda e: math.sqrt(2.0) * e / NELO_PER_T
            p0 = mle_t(PAIR_SCORES, phat, t(elo0))
            p1 = mle_t(PAIR_SCORES, phat, t(elo1))
        else:
            raise SystemExit(f"unknown SPRT model {model!r}")
    if p0 is None or p1 is None:
        raise SystemExit(f"no maximum-likelihood solution for {model} {elo0} {elo1} {wdl} {penta}")
    return total * sum(a * math.log(b / c) for a, b, c in zip(phat, p1, p0))


class Tally:
    def __init__(self):
        self.checked = 0
        self.failed = 0

    def compare(self, what, got, want, tol):
        ok = abs(got - want) <= tol
        self.checked += 1
        self.failed += not ok
        print(f"{'ok' if ok else 'FAILED'}: {what}: uci960 {got:.9f}, independent {want:.9f}")


def check_doc(doc, text, tally, label):
    lines = re.findall(r"SPRT elo0=\S+ elo1=\S+ alpha=\S+ beta=\S+ model=\S+: LLR (-?\d+\.\d+)", text or "")
    n = 0
    for p in doc["pairings"]:
        s = p.get("sprt")
        if not s:
            continue
        want = llr(s["model"], s["elo0"], s["elo1"], (p["wins"], p["draws"], p["losses"]), p["pentanomial"])
        what = (f"{label} {s['model']} elo0={s['elo0']} elo1={s['elo1']} "
                f"W/D/L {p['wins']}/{p['draws']}/{p['losses']} pairs {p['pentanomial']}")
        tally.compare(what, s["llr"], want, 1e-6 * max(1.0, abs(want)))
        if text is not None:
            # The printed LLR is the same number to two decimals.
            tally.compare(what + " (printed)", float(lines[n]), want, 0.005 + 1e-6 * max(1.0, abs(want)))
        n += 1
    return n


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd[:3])} … exited {p.returncode}: {p.stderr[-800:]}")
    return p.stdout


# Tables for the crafted merges: (pentanomial [0, .5, 1, 1.5, 2] for the
# first engine, W/D/L count follows from it).
TABLES = [
    [365, 16618, 36229, 16974, 390],   # fastchess's sprt_test (WL+DD merged)
    [127, 4883, 10712, 5150, 104],
    [223, 9863, 21279, 10037, 246],
    [40, 310, 900, 350, 45],
    [0, 12, 30, 20, 3],                # an empty cell (regularised)
    [5, 0, 9, 0, 0],                   # the first engine never ahead in a pair
]
MODELS = [("normalized", 0.0, 2.0), ("normalized", -1.75, 0.25), ("logistic", 0.5, 2.5),
          ("logistic", -5.0, 0.0), ("bayeselo", 0.0, 5.0)]

# Two games of one pair for a pair score of 0..4 half points for engine 0
# (White in the first game, Black in the second).
PAIR_GAMES = {
    0: ("BlackWins", "WhiteWins"),
    1: ("Draw", "WhiteWins"),
    2: ("Draw", "Draw"),
    3: ("WhiteWins", "Draw"),
    4: ("WhiteWins", "BlackWins"),
}


def crafted_state(template, penta, model, elo0, elo1):
    st = json.loads(json.dumps(template))
    pairs = sum(penta)
    st["identity"]["schedule"]["games"] = 2
    st["identity"]["schedule"]["rounds"] = pairs
    st["identity"]["sprt"].update(model=model, elo0=elo0, elo1=elo1)
    games = []
    number = 1
    for score, count in enumerate(penta):
        for _ in range(count):
            for colour, result in enumerate(PAIR_GAMES[score]):
                games.append({"number": number, "result": result, "termination": "threefold",
                              "notation_errors": [0, 0], "white": colour, "black": 1 - colour})
                number += 1
    st["games"] = games
    st["pgn_bytes"] = 0
    st.pop("pending", None)
    # Hand-made: without the check uci960 writes (an edited state that
    # keeps its check is refused as damaged; one without is read).
    st.pop("check", None)
    return st


def main_run(uci960, work):
    tally = Tally()
    os.makedirs(work, exist_ok=True)
    # Depth 1 against depth 2 from 10 random plies: wins on both sides.
    game = ["--engine", "name=a", "depth=1", "--engine", "name=b", "depth=2", "--seed", "11",
            "--random-plies", "10", "--maxmoves", "60"]
    # Real games: each model on the same short match (wide bounds: all
    # 20 games are played).
    for model in ["normalized", "logistic", "bayeselo"]:
        doc = os.path.join(work, f"real-{model}.json")
        out = run([uci960, "match", *game, "--games", "20", "--json", doc, "--quiet",
                   "--sprt", "elo0=-20", "elo1=20", "alpha=0.001", "beta=0.001", f"model={model}"])
        check_doc(json.load(open(doc)), out, tally, f"match (real games, {model})")
    # A real shard state as the template of the crafted ones.
    tpl_dir = os.path.join(work, "template")
    run([uci960, "match", *game, "--games", "2", "--shard", "1/1", "--dir", tpl_dir, "--quiet",
         "--sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"])
    template = json.load(open(os.path.join(tpl_dir, "shard-1-of-1.state.json")))
    for t, penta in enumerate(TABLES):
        for m, (model, elo0, elo1) in enumerate(MODELS):
            d = os.path.join(work, f"table-{t}-{m}")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "shard-1-of-1.state.json"), "w") as f:
                json.dump(crafted_state(template, penta, model, elo0, elo1), f)
            doc = os.path.join(d, "merged.json")
            out = run([uci960, "merge", d, "--json", doc])
            merged = json.load(open(doc))
            got = merged["pairings"][0]["pentanomial"]
            if got != penta:
                raise SystemExit(f"crafted table {penta} merged as {got}")
            check_doc(merged, out, tally, f"merge (table {t + 1})")
    return tally


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        tally = Tally()
        text = open(sys.argv[3]).read() if len(sys.argv) > 3 else None
        check_doc(json.load(open(sys.argv[2])), text, tally, sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "run":
        tally = main_run(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)
    print(f"{tally.checked} checked, {tally.failed} failed")
    sys.exit(1 if tally.failed or not tally.checked else 0)


if __name__ == "__main__":
    main()
