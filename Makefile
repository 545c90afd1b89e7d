# The README's two commands: `make report` (the main job) and `make test` (the CI test set).
# Both bootstrap .venv when it is missing.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
PYTHON  := $(BIN)/python
STAMP   := $(VENV)/.installed
FRESH   ?=
QUICK   ?=
export MPLBACKEND := Agg

.PHONY: help venv test test-all report figures bench notebooks clean-notebooks clean

help:  ## list the targets
	@echo "make report          evaluate every claim: report/VERDICTS.md, report/html/, report/verdicts.json, report/run.json (FRESH=1 recomputes); exits 1 on any problem"
	@echo "make test            the CI test set (everything not marked slow), as .ci/run"
	@echo "make test-all        every test, slow scans included"
	@echo "make figures         every paper figure/table script (QUICK=1: smoke setting, written to figures/out/quick)"
	@echo "make fig-<id>        one figure, e.g. make fig-000-1a (python -m figures.run --help lists them)"
	@echo "make table-<id>      one table, e.g. make table-002-9"
	@echo "make bench           benchmarks against the peer accountants: bench/RESULTS.md"
	@echo "make notebooks       execute the derivation notebooks (theory/notebooks/*.py) into .cache/notebooks"
	@echo "make clean-notebooks regenerate the tracked output-free .ipynb from their .py"
	@echo "make venv            create .venv and install the suite with its dev and peers extras"
	@echo "make clean           remove .venv, the cache and the report outputs"

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PYTHON) || $(PY) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[dev,peers]'
	touch $(STAMP)

# CI test set: everything but @pytest.mark.slow; any non-zero pytest exit fails (5 = nothing collected too).
# Notebooks under theory/notebooks execute in CI through nbmake. --dist loadgroup keeps the tests of one
# claim on one worker (tests/ledger_verdicts.py: each claim is evaluated once per worker).
NOTEBOOKS := $(wildcard theory/notebooks/*.ipynb)
PYTEST_N  := -n 2 --dist loadgroup
test: $(STAMP)
	$(BIN)/pytest -m "not slow" $(PYTEST_N) -q tests $(if $(NOTEBOOKS),--nbmake $(NOTEBOOKS),)

test-all: $(STAMP)
	$(BIN)/pytest $(PYTEST_N) -q tests $(if $(NOTEBOOKS),--nbmake $(NOTEBOOKS),)

report: $(STAMP)
	$(PYTHON) -m theory.report $(if $(FRESH),--fresh,) $(if $(SCHEDULER),--scheduler $(SCHEDULER),) $(if $(BACKEND),--backend $(BACKEND),)

bench: $(STAMP)
	$(PYTHON) -m bench

# One target per paper figure or table: `make fig-000-1a`, `make table-002-9`, ...; QUICK=1 for the
# smoke-test setting. Target fig-000-1a runs figures/fig_000_1a.py (see figures/run.py).
figures: $(STAMP)
	$(PYTHON) -m figures.run all $(if $(QUICK),--quick,)

fig-%: $(STAMP)
	$(PYTHON) -m figures.run $@ $(if $(QUICK),--quick,)

table-%: $(STAMP)
	$(PYTHON) -m figures.run $@ $(if $(QUICK),--quick,)

# Notebooks: each theory/notebooks/X.py (jupytext, the source of truth) is converted and executed into
# $(NB_OUT)/X.ipynb (git-ignored): no tracked file is rewritten. clean-notebooks regenerates the tracked,
# output-free .ipynb from its .py deterministically (run it after editing a .py, then commit both).
NB_OUT := .cache/notebooks
notebooks: $(STAMP)
	mkdir -p $(NB_OUT)
	set -e; for py in $(NOTEBOOKS:.ipynb=.py); do \
	  name=$$(basename $$py .py); \
	  $(PYTHON) tools/pair_notebooks.py --execute $$py $(NB_OUT)/$$name.ipynb; \
	  echo "executed $$py -> $(NB_OUT)/$$name.ipynb"; \
	done

clean-notebooks: $(STAMP)
	set -e; for py in $(NOTEBOOKS:.ipynb=.py); do $(PYTHON) tools/pair_notebooks.py $$py $${py%.py}.ipynb; done

clean:
	rm -rf $(VENV) .cache report/verdicts.json report/VERDICTS.md report/run.json report/html
