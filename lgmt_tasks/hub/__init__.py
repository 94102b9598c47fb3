"""Hub dataset repositories: writing, checking and publishing a suite's folder."""
