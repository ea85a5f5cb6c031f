"""skatsim: simulate Skat under configurable house rules and turn millions of games into statistics."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("skatsim")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"
