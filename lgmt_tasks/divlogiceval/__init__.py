"""The divlogiceval suite."""
