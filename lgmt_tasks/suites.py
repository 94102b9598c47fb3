"""The suite registry: one typed record per suite, the only place a suite's facts are listed.

The CLI (`lgmt build`, `lgmt suites`), the dataset cards, `lgmt report`, `lgmt verify`, the parallel builders' fork
server, the leaderboard, the Makefile's `datasets` target and the layout tests all read this list. A suite's code lives
in its own package `lgmt_tasks/<name>/`, with the same module names in each (`Suite.module`), so the record names
only what differs between suites. Adding a suite is one package and one entry here.

Importing this module imports nothing else of ours: the modules of a suite are loaded only when asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

STANDARD_MODULES: tuple[str, ...] = ("task", "dataset", "config", "build", "card", "cli", "report", "claims")
"""The modules every suite package has (`lgmt_tasks/<suite>/<module>.py`), besides its README.md."""


@dataclass(frozen=True)
class Suite:
    """What the rest of the package needs to know about one suite.

    Attributes:
        name: The suite's name (`lgmt build <name>`, `datasets/<name>`, `lgmt_tasks/<name>/`).
        title: One line for catalogues.
        paper: Short citation (authors, year, venue).
        bibtex: The paper's BibTeX entry (cards, reports).
        version: The tasks' version, "N-X" (N: results comparable; X: interface). The Inspect tasks and the lm-eval
            YAML metadata both carry it (a test ties them).
        tasks: Inspect task names (registered as `lgmt_tasks/<task>`).
        lm_eval_tasks: lm-eval task and group names.
        columns: Columns every row of this suite has; `lgmt verify` and the loaders recognise a folder's suite by them.
        claims_note: What `lgmt verify` re-proves for a row of this suite.
        prompting_arg: The task argument that is the suite's prompting setting (None: it has none).
        prompting_default: That argument's default, for logs that do not record it.
        leaderboard_metrics: Leaderboard column → the metric's name in this suite's logs and lm-eval results.
        evaluate_modules: The Hugging Face `evaluate` modules (`lgmt_tasks/metrics/<name>/`) of its metrics.
        extra_modules: Modules of the package besides `STANDARD_MODULES` whose import the parallel builders preload
            (they hold unit functions that worker processes run).
        shortcut_battery: Whether the suite ships a shortcut battery (`lgmt_tasks/<name>/shortcuts.py`, `BATTERY`:
            form-only heuristics that must stay near chance; `lgmt verify` runs it). The multiple-choice and yes/no
            suites do; the pairwise suites compare a model with itself and have no answer key to guess.
        scorer: The name of the suite's Inspect scorer, which keys its score in logs (`sample.scores[scorer]`,
            `samples_df`'s `score_<scorer>` column). The names predate a common scheme and are kept, so that old logs
            and new ones read alike (the root README, "Reports and leaderboards", gives the mapping).
    """

    name: str
    title: str
    paper: str
    bibtex: str
    version: str
    tasks: tuple[str, ...]
    lm_eval_tasks: tuple[str, ...]
    columns: frozenset[str]
    claims_note: str
    prompting_arg: str | None = None
    prompting_default: str | None = None
    leaderboard_metrics: Mapping[str, str] = field(default_factory=dict)
    evaluate_modules: tuple[str, ...] = ()
    extra_modules: tuple[str, ...] = ()
    shortcut_battery: bool = False
    scorer: str = ""

    @property
    def package(self) -> str:
        """The suite's package, `lgmt_tasks.<name>`."""
        return f"lgmt_tasks.{self.name}"

    def module(self, name: str) -> ModuleType:
        """Import one of the suite's modules (`task`, `build`, `report`, ...) on demand."""
        return importlib.import_module(f"{self.package}.{name}")

    def attr(self, module: str, name: str) -> Any:
        """An attribute of one of the suite's modules, e.g. `attr("build", "FEATURES")`."""
        return getattr(self.module(module), name)


def _same(*names: str) -> Mapping[str, str]:
    return {n: n for n in names}


_PAIRWISE = ("mvr", "mvr_stderr", "acc_static", "acc_cons", "hdr", "fur", "acc_static_parsed", "acc_cons_parsed")

SUITES: tuple[Suite, ...] = (
    Suite(
        name="lgmt",
        title="LGMT: 20 metamorphic relations from first-order-logic laws, scored pairwise",
        paper="Zhou et al., 2026",
        bibtex="""@article{zhou2026lgmt,
  title   = {LGMT: Logic-Grounded Metamorphic Testing for Evaluating the Reasoning Reliability of LLMs},
  author  = {Zhou, Zenghui and Li, Man and Fang, Xiaoke and Zhou, Xinyi and Li, Weibin and Zheng, Zheng},
  year    = {2026}
}""",
        version="7-A",
        tasks=("mr_e", "mr_e1", "mr_e2", "mr_s", "mr_p", "mr_c", "lgmt"),
        lm_eval_tasks=(
            "lgmt",
            "lgmt_loglik",
            "lgmt_mr_e",
            "lgmt_mr_s",
            "lgmt_mr_p",
            "lgmt_mr_c",
            "lgmt_mr_e_loglik",
            "lgmt_mr_s_loglik",
            "lgmt_mr_p_loglik",
            "lgmt_mr_c_loglik",
        ),
        columns=frozenset(
            {"premises_fol", "conclusion_fol", "label", "followup_premises_fol", "followup_conclusion_fol", "category"}
        ),
        claims_note="source label, follow-up labels, and the rewritten formula's equivalence for MR-E/MR-C",
        scorer="metamorphic_consistency",
        prompting_arg="prompting",
        prompting_default="zero_shot_cot",
        leaderboard_metrics=_same(*_PAIRWISE, "unparsed_rate"),
        evaluate_modules=("mvr", "acc_static", "acc_cons", "hdr", "fur"),
    ),
    Suite(
        name="logicasker",
        title="LogicAsker: atomic propositional and predicate logic skills as proven yes/no tests",
        paper="Wan et al., EMNLP 2024",
        bibtex="""@inproceedings{wan2024logicasker,
  title     = {{LogicAsker}: Evaluating and Improving the Logical Reasoning Ability of Large Language Models},
  author    = {Wan, Yuxuan and Wang, Wenxuan and Yang, Yiliu and Yuan, Youliang and Huang, Jen-tse and He, Pinjia
               and Jiao, Wenxiang and Lyu, Michael R.},
  booktitle = {Proceedings of the 2024 Conference on Empirical Methods in Natural Language Processing},
  year      = {2024}
}""",
        version="6-A",
        tasks=("logicasker",),
        lm_eval_tasks=("lgmt_logicasker", "lgmt_logicasker_loglik"),
        columns=frozenset({"premises_fol", "conclusion_fol", "answer", "problem_type"}),
        claims_note="the yes/no answer (yes iff the premises entail the conclusion)",
        scorer="yes_no_answer",
        prompting_arg="demonstrations",
        prompting_default="none",
        leaderboard_metrics={
            "accuracy": "accuracy",
            "accuracy_stderr": "accuracy_stderr",
            "accuracy_parsed": "response_accuracy",
            "instruction_following_rate": "instruction_following_rate",
        },
        evaluate_modules=("response_accuracy",),
        shortcut_battery=True,
    ),
    Suite(
        name="divlogiceval",
        title="DivLogicEval: proven four-option propositional logic questions, circular evaluation",
        paper="Chung et al., EMNLP 2025",
        bibtex="""@inproceedings{chung2025divlogiceval,
  title     = {DivLogicEval: A Framework for Benchmarking Logical Reasoning Evaluation in Large Language Models},
  author    = {Chung, Tsz Ting and Liu, Lemao and Yu, Mo and Yeung, Dit-Yan},
  booktitle = {Proceedings of the 2025 Conference on Empirical Methods in Natural Language Processing},
  year      = {2025}
}""",
        version="7-A",
        tasks=("divlogiceval",),
        lm_eval_tasks=("lgmt_divlogiceval", "lgmt_divlogiceval_loglik"),
        columns=frozenset({"content_logic", "options_logic", "answer", "question_type"}),
        claims_note="the answer key and the construction claims of every option",
        scorer="circular_choice",
        prompting_arg="shots",
        prompting_default="0",
        leaderboard_metrics={
            "accuracy": "acc",
            "accuracy_stderr": "acc_stderr",
            "accuracy_parsed": "acc_parsed",
            "circular": "circular",
            "partial_circular": "partial_circular",
            "unparsed_rate": "unparsed_rate",
        },
        evaluate_modules=("partial_circular", "circular"),
        shortcut_battery=True,
    ),
    Suite(
        name="qmfol",
        title="QMFOL: monadic FOL tasks with controlled depth, width, label, distractors and topic",
        paper="Zheng et al., 2026",
        bibtex="""@article{zheng2026qmfol,
  title   = {QMFOL: Benchmarking Large Language Model Reasoning via Quantifiable Monadic First-Order Logic Test Case
             Generation},
  author  = {Zheng, Xinyi and Shi, Ling and Yu, Tianlong and Zhao, Yongxin and Goette, Lorenz and Wang, Kailong},
  journal = {arXiv preprint arXiv:2606.20227},
  year    = {2026}
}""",
        version="6-A",
        tasks=("qmfol",),
        lm_eval_tasks=("lgmt_qmfol",),
        columns=frozenset({"premises_fol", "conclusion_fol", "label", "rules_fol", "facts_fol"}),
        claims_note="the label with and without the distractors",
        scorer="qmfol_scorer",
        leaderboard_metrics=_same("accuracy", "accuracy_stderr", "accuracy_parsed", "macro_f1", "unparsed_rate"),
        evaluate_modules=("macro_f1",),
        shortcut_battery=True,
    ),
    Suite(
        name="lexical",
        title="LLMorph baseline: lexical metamorphic relations and embedding-similarity output relations",
        paper="Cho et al., 2025",
        bibtex="""@inproceedings{cho2025llmorph,
  title     = {Metamorphic Testing of Large Language Models for Natural Language Processing},
  author    = {Cho, Steven and Ruberto, Stefano and Terragni, Valerio},
  booktitle = {IEEE International Conference on Software Maintenance and Evolution (ICSME)},
  year      = {2025}
}""",
        version="5-A",
        tasks=("lexical",),
        lm_eval_tasks=("lgmt_lexical", "lgmt_lexical_loglik"),
        columns=frozenset({"premises_fol", "conclusion_fol", "label", "kind", "pending"}),
        claims_note="the source label, and the follow-up label where it is proven (MR-19, MR-84, MR-152)",
        scorer="lexical_consistency",
        prompting_arg="prompting",
        prompting_default="zero_shot_cot",
        leaderboard_metrics=_same(*_PAIRWISE, "discarded_rate", "unparsed_rate"),
        evaluate_modules=("llmorph_confusion",),
    ),
)
"""Every suite, in the order catalogues and reports list them."""

BY_NAME: Mapping[str, Suite] = MappingProxyType({s.name: s for s in SUITES})
SUITE_NAMES: tuple[str, ...] = tuple(BY_NAME)
TASK_SUITE: Mapping[str, str] = MappingProxyType({t: s.name for s in SUITES for t in s.tasks})
"""Inspect task name (without the `lgmt_tasks/` prefix) → its suite."""


def suite(name: str) -> Suite:
    """The registry entry of a suite.

    Raises:
        ValueError: For a name that is not a suite (the message lists the suites).
    """
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown suite {name!r}; expected one of {', '.join(SUITE_NAMES)}") from None


def suite_of_task(task: str) -> Suite | None:
    """The suite of an Inspect task name (with or without the `lgmt_tasks/` prefix); None for other tasks."""
    name = TASK_SUITE.get(task.split("/")[-1])
    return None if name is None else BY_NAME[name]
