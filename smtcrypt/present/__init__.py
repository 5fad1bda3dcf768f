"""Output formats shared by the command line and the web page: text lines and plain data for JSON."""
