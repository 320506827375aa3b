"""The scenarios and stand-ins run inside MicroPython, not under pytest's CPython."""

collect_ignore_glob = ["scenarios/*.py", "standins/*.py"]
