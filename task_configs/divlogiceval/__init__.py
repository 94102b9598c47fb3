"""lm-eval configs of DivLogicEval (YAML only; the code is `lgmt_tasks.task_configs.divlogiceval.utils`)."""
