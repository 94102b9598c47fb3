"""Source test cases: loaders for FOLIO, ProverQA, LogicNLI and our generated problems."""
