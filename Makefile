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

.PHONY: venv test test-all report figures bench notebooks clean-notebooks clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PYTHON) || $(PY) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[dev,peers]'
	touch $(STAMP)

# CI test set: everything but @pytest.mark.slow; exit 5 (no tests collected) is not a failure.
test: $(STAMP)
	$(BIN)/pytest -m "not slow" -n 2 -q; rc=$$?; if [ $$rc -eq 5 ]; then exit 0; else exit $$rc; fi

test-all: $(STAMP)
	$(BIN)/pytest -n 2 -q

report: $(STAMP)
	$(PYTHON) -m theory.report $(if $(FRESH),--fresh,) $(if $(SCHEDULER),--scheduler $(SCHEDULER),)

bench: $(STAMP)
	$(PYTHON) -m bench

clean:
	rm -rf $(VENV) .cache report/verdicts.json report/VERDICTS.md report/run.json
