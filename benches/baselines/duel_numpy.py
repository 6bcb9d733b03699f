"""The melee duel as a user would write it in vectorised numpy (the baseline diemon must beat).

Same rules as benches/baselines/hand_loop.rs and `diemon duel` defaults: Skill d6 vs Use 2
(natural 1 misses), Damage 1d6 with Bonus d6es vs Armor 4, a natural 6 adds one more
exploding Damage d6, d6 roll-off for the first attacker. Prints duels/s and P(A wins).

    python3 benches/baselines/duel_numpy.py [N]
"""
import sys
import time

import numpy as np


def exploding_d6(rng, n):
    total = np.zeros(n, dtype=np.int64)
    rolling = np.ones(n, dtype=bool)
    while rolling.any():
        f = rng.integers(1, 7, size=n)
        total += np.where(rolling, f, 0)
        rolling &= f == 6
    return total


def duels(rng, n):
    a_turn = rng.integers(1, 7, size=n) % 2 == 1
    alive = np.ones(n, dtype=bool)  # duel still running
    a_wins = np.zeros(n, dtype=bool)
    while alive.any():
        idx = np.nonzero(alive)[0]
        m = idx.size
        skill = rng.integers(1, 7, size=m)
        dmg = exploding_d6(rng, m) + np.where(skill == 6, exploding_d6(rng, m), 0)
        kill = (skill >= 2) & (dmg > 4)
        a_wins[idx[kill]] = a_turn[idx[kill]]
        alive[idx[kill]] = False
        a_turn[idx] = ~a_turn[idx]
    return a_wins.sum()


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000
    rng = np.random.default_rng(1)
    duels(rng, 10_000)  # warm up
    t = time.perf_counter()
    wins = duels(rng, n)
    dt = time.perf_counter() - t
    print(f"{n} duels in {dt:.2f} s: {n / dt / 1e6:.2f} M duels/s on one core, P(A wins) {wins / n:.4f}")


if __name__ == "__main__":
    main()
