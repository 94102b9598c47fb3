"""Re-prove what a built dataset claims with an independent prover (`lgmt verify PATH`, `lgmt verify --source`).

Every label and equivalence we ship was proven by Z3 when it was built (DESIGN decision 2). This package states each
row's claims again from the row's own strings (`claims`), proves them with a prover chosen by name (`provers`: E by
default, or Z3), and counts agreement, disagreement, undecided and unparsable claims apart (`check`). `dataset`
reads a built folder through its card; `source` compares Z3 and E on a source benchmark's own formalisation;
`shortcuts` scores form-only heuristics against a built dataset's answer key.
"""

from lgmt_tasks.suites import SUITE_NAMES
from lgmt_tasks.verify.check import VerifyResult
from lgmt_tasks.verify.claims import Claim
from lgmt_tasks.verify.dataset import verify_dataset
from lgmt_tasks.verify.provers import PROVERS, Prover, ProverUnavailable, get_prover
from lgmt_tasks.verify.source import SourceVerifyResult, verify_source

__all__ = [
    "PROVERS",
    "SUITE_NAMES",
    "Claim",
    "Prover",
    "ProverUnavailable",
    "SourceVerifyResult",
    "VerifyResult",
    "get_prover",
    "verify_dataset",
    "verify_source",
]
