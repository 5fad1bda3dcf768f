"""The classic: SEND + MORE = MONEY, its solution, and the proof that it is the only one."""

import smtcrypt

puzzle = smtcrypt.Puzzle("SEND + MORE = MONEY")
verdict = puzzle.verdict()
for solution in verdict.solutions:
    print(solution)
print(f"status: {verdict.status.value} ({verdict.seconds:.2f} s)")
