"""``python -m skatsim`` runs the command line."""

from .cli import console

console()
