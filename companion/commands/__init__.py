"""The command-line subcommands other than ``serve`` (which is the web layer's): each a module
with ``add_arguments`` and ``run``, wired by :mod:`companion.cli`."""
