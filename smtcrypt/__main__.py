"""`python -m smtcrypt`: the same as the `smtcrypt` command."""

from smtcrypt.cli import run

if __name__ == "__main__":
    run()
