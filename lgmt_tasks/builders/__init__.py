"""What every suite's builder and loader share; the builders themselves are `lgmt_tasks/<suite>/build.py`.

`cache` (a content-addressed cache of builds), `shipped` (the default builds shipped in the package), `parallel`
(process pools whose output never depends on `num_proc`), `stats` (what a build generated and dropped), `result`
(what a builder returns), `schema` (a suite's dataset parameters), `rows` (rows to a `datasets.Dataset`),
`repo_folder` (what a dataset folder holds), `load` and `order` (the one row loader of every suite, round-robin over
its strata) and `command` (what every `lgmt build <suite>` shares).
"""
