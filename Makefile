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
	@echo "make report          evaluate every claim: report/VERDICTS.md, report/verdicts.json, report/run.json (FRESH=1 recomputes)"
	@echo "make test            the CI test set (everything not marked slow), as .ci/run"
	@echo "make test-all        every test, slow scans included"
	@echo "make figures         every paper figure/table script (QUICK=1: smoke setting, written to figures/out/quick)"
	@echo "make fig-<id>        one figure, e.g. make fig-000-1a (python -m figures.run --help lists them)"
	@echo "make table-<id>      one table, e.g. make table-002-9"
	@echo "make bench           benchmarks against the peer accountants: bench/RESULTS.md"
	@echo "make notebooks       execute the derivation notebooks in theory/notebooks"
	@echo "make clean-notebooks strip notebook outputs"
	@echo "make venv            create .venv and install the suite with its dev and peers extras"
	@echo "make clean           remove .venv, the cache and the report outputs"

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PYTHON) || $(PY) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[dev,peers]'
	touch $(STAMP)

# CI test set: everything but @pytest.mark.slow; exit 5 (no tests collected) is not a failure.
# Notebooks under theory/notebooks execute in CI through nbmake.
NOTEBOOKS := $(wildcard theory/notebooks/*.ipynb)
test: $(STAMP)
	$(BIN)/pytest -m "not slow" -n 2 -q tests $(if $(NOTEBOOKS),--nbmake $(NOTEBOOKS),); rc=$$?; if [ $$rc -eq 5 ]; then exit 0; else exit $$rc; fi

test-all: $(STAMP)
	$(BIN)/pytest -n 2 -q tests $(if $(NOTEBOOKS),--nbmake $(NOTEBOOKS),)

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

# Notebooks: paired with jupytext .py files; execute in place, or strip outputs before committing.
notebooks: $(STAMP)
	for nb in $(NOTEBOOKS); do $(BIN)/jupytext --sync $${nb%.ipynb}.py && $(BIN)/jupyter nbconvert --to notebook --execute --inplace $$nb; done

clean-notebooks: $(STAMP)
	for nb in $(NOTEBOOKS); do $(BIN)/jupyter nbconvert --clear-output --inplace $$nb; done

clean:
	rm -rf $(VENV) .cache report/verdicts.json report/VERDICTS.md report/run.json
