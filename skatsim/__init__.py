"""skatsim: simulate Skat under configurable house rules and turn millions of games into statistics."""

#: The package's version (``pyproject.toml`` reads it from here). A literal, not looked up in the installed
#: distribution's metadata: ``importlib.metadata`` took 18 ms of every command's start.
__version__ = "0.1.0"
