"""The ``skatsim`` command line: parses arguments and calls library functions.

Every expected failure (bad input, bad files) is a :class:`SkatsimError` or a
usage error and ends as one line on stderr with exit code 2, never a traceback.
"""

from __future__ import annotations

import sys

import click

from .errors import SkatsimError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="skatsim")
def app() -> None:
    """Simulate Skat under configurable house rules and analyse the games."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    try:
        app.main(args=argv, prog_name="skatsim", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "skatsim"
        print(f"skatsim: error: {exc.format_message()} (see '{where} --help')", file=sys.stderr)
        return 2
    except click.ClickException as exc:
        print(f"skatsim: error: {exc.format_message()}", file=sys.stderr)
        return 2
    except click.Abort:
        print("skatsim: aborted", file=sys.stderr)
        return 130
    except SkatsimError as exc:
        print(f"skatsim: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("skatsim: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
