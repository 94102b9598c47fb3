"""`python -m lgmt_tasks.cli`: the same as the `lgmt` command."""

from lgmt_tasks.cli import main

main()
