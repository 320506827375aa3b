"""mp_suite.py and the stand-ins run inside MicroPython, not under pytest's CPython."""

collect_ignore_glob = ["mp_suite.py", "standins/*.py"]
