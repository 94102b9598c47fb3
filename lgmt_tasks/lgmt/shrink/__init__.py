"""`lgmt shrink`: minimal counterexamples from the violating groups of an LGMT eval log.

For each violating group, a greedy search (delta debugging, Hypothesis-style shrinking) looks for the smallest
group that still makes the model violate: `candidates` makes every one-step simplification of the source (drop a
premise, replace a sub-formula by a simpler one, rename a symbol to a shorter one) ordered by size; `derive`
re-proves each candidate with Z3 and re-derives its follow-up by the same relation; `asker` asks the log's model
with the log's prompts; `search` accepts the first smaller group that still violates and repeats; `output` writes
the minimal groups as an LGMT dataset folder with `trace.json` and `digest.md`; `command` is the click command. `logs`
reads the violating groups and how they were asked from the log; `report` is the shrink part of `lgmt report`.

Nothing here is imported by the package at start-up except the click command (`lgmt_tasks.lgmt.cli`), whose body
imports the rest when it runs.
"""
