"""Nonlinear puzzles (products, powers, quotients, roots) and their uniqueness verdicts."""

import smtcrypt

PUZZLES = [
    "ODD * ODD = FREAKY",  # two solutions
    "TWO * TWO = SQUARE",  # three solutions
    "HIP * HIP = HURRAY",  # unique
    "MON-EY = EVIL**(1/2)",  # an exact square root
    "sum(range(POP)) = BOBO",
    "ATOM**0.5 = A + TO + M",
]

for formula in PUZZLES:
    verdict = smtcrypt.verdict(formula, timeout=60)
    shown = "; ".join(solution.text for solution in verdict.solutions)
    print(f"{formula:28} {verdict.status.value:8} {shown}")
