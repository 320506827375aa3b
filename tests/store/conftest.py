"""Store tests: schema, migrations and the release fixture."""

# Run by hand from a checkout of the old release, not a test module (its imports are that
# release's).
collect_ignore = ["fixtures/make_release_db.py", "fixtures/make_v2_db.py"]
