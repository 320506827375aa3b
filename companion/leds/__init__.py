"""LED picture of the score track and pyramid, computed from the public game state."""
