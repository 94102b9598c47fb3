"""LGMT tasks end to end on a scripted model: the built dataset, the group solver and the scorer together."""

import json

import pytest
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from lgmt_tasks.lgmt.dataset import MR_SETS, record_to_sample
from lgmt_tasks.lgmt.task import lgmt, mr_c, mr_s


def scripted(answer_for):
    """A mock model whose answer depends on the user prompt (order-independent under concurrency)."""

    def outputs(messages, *args, **kwargs):
        prompt = next(m.text for m in messages if m.role == "user")
        out = ModelOutput.from_content("mockllm/model", answer_for(prompt))
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    return get_model("mockllm/model", custom_outputs=outputs)


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))


def test_record_to_sample_keeps_every_member_and_the_report_fields():
    task = mr_c(per_mr=2, seed=5)
    sample = task.dataset[0]
    assert sample.target in ("True", "False", "Unknown")
    assert len(sample.metadata["members"]) == 2
    assert sample.input == sample.metadata["members"][0]
    for key in ("mr", "category", "direction", "source_id", "followup_conclusion_fol"):
        assert key in sample.metadata
    assert record_to_sample  # the public mapper the dataset uses


def test_task_sets_partition_the_twenty_relations():
    parts = MR_SETS["mr_e"] + MR_SETS["mr_s"] + MR_SETS["mr_p"] + MR_SETS["mr_c"]
    assert sorted(parts) == sorted(MR_SETS["lgmt"]) and len(parts) == 20
    assert set(MR_SETS["mr_e1"]) | set(MR_SETS["mr_e2"]) == set(MR_SETS["mr_e"])


def test_a_model_that_flips_on_renamed_symbols_violates_exactly_there(tmp_path):
    """Answers True unless the prompt mentions an abstract renamed symbol: every MR-S group violates."""
    task = lgmt(per_mr=2, seed=7)
    model = scripted(lambda p: json.dumps({"label": "False" if ("Con1" in p or "Pre1" in p) else "True"}))
    (log,) = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    metrics = {k: v.value for k, v in log.results.scores[0].metrics.items()}
    assert metrics["mvr_MR-S1"] == 1.0 and metrics["mvr_MR-S2"] == 1.0
    assert metrics["mvr_MR-P1"] == 0.0 and metrics["mvr_MR-C3"] == 0.0
    labels = [s.target for s in log.samples]
    assert metrics["acc_static"] == pytest.approx(labels.count("True") / len(labels))
    assert metrics["unparsed_rate"] == 0.0


def test_prefill_opens_the_answer_and_is_kept_in_the_response(tmp_path):
    task = mr_s(per_mr=1, seed=2, prompting="zero_shot", prefill=True)
    model = scripted(lambda p: 'Unknown"}')
    (log,) = eval(task, model=model, log_dir=str(tmp_path), display="none")
    for sample in log.samples:
        assert sample.store["responses"] == ['{"label": "Unknown"}'] * 2
    assert log.results.scores[0].metrics["unparsed_rate"].value == 0.0


def test_bad_parameters_fail_at_task_creation_with_the_valid_values():
    with pytest.raises(ValueError, match="translator='llm'"):
        mr_c(translator="llm")
    with pytest.raises(ValueError, match="zero_shot_cot"):
        mr_c(prompting="cot", per_mr=1)
    with pytest.raises(ValueError, match="source_path"):
        mr_c(source="folio")
