"""`python -m smtcrypt`: the same as the `smtcrypt` command."""

from .cli import run

if __name__ == "__main__":
    run()
