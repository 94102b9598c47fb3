"""Reports from Inspect logs: metric tables in the papers' shapes, leaderboard rows, plots."""
