"""Source test cases (`case.Case`): the problems LGMT and the lexical suite start from, and how far to trust them.

Readers of FOLIO, ProverQA and LogicNLI (`load`, through `record_files` and `common`), our generated problems
(`generated`), and QMFOL's and LogicAsker's problems (through the suite registry); `audit` (a source's FOL parsed
and its labels proven) and `pipeline` (the proven source stage both suites share).
"""
