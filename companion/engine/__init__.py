"""Chocolatl rules engine."""
