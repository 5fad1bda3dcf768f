__version__ = "0.1.0"
VERSION_LINE = f"smtcrypt {__version__}"  # what `smtcrypt --version` prints
