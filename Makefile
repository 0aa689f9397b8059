# The two commands of the README: `make report` and `make test`. Each installs what is missing first.
PY := .venv/bin/python
# claims run in JOBS worker processes and the Sec. 8 experiments on a Dask LocalCluster of JOBS workers
# (report --jobs; measured: reports/benchmarks/report_jobs.json); `make report JOBS=1` for one process
JOBS ?= 2
.PHONY: report test test-slow measure-loops check-certificates benchmarks setup lint docs determinism bench-polyopt-large mutation mutation-semantic mutation-generic mutation-one

setup:
	@bash scripts/bootstrap.sh

# incremental: claims and benchmarks whose key (code, options, library versions, data) is unchanged are reused
# (rldp_verify.claims.cache, benchmarks/run.py); `make report NO_CACHE=1` recomputes everything
NO_CACHE ?=
CACHE_FLAG = $(if $(NO_CACHE),--no-cache,)
report: setup
	@$(PY) benchmarks/run.py $(CACHE_FLAG)
	@$(PY) -m rldp_verify report --include-slow --jobs $(JOBS) $(CACHE_FLAG) --certificates reports/certificates
	@$(PY) scripts/check_pins.py reports/verification.json

# issue 23: re-check certificates with the independent checker alone (rldp_verify_check imports nothing from the
# engine): the committed examples, and the report's when it wrote any (reports/certificates)
check-certificates: setup
	@$(PY) -m rldp_verify_check tests/certificates/data/good $(wildcard reports/certificates)

# issue 28 item 5: the loops (test command; report cold, warm, after one edited proofs module) in a fresh clone
measure-loops: setup
	@$(PY) benchmarks/measure_loops.py

# ruff: E, F, I, B, UP, SIM, C90 (complexity 25); mypy: the whole engine and checker, then strict on rldp_verify/core.
# Both configured in pyproject.toml.
lint: setup
	@$(PY) -m ruff check --quiet rldp_verify rldp_verify_check proofs tests benchmarks scripts
	@$(PY) -m mypy --no-error-summary
	@$(PY) -m mypy --no-error-summary --strict rldp_verify/core

# the tests run on TEST_JOBS cores (pytest-xdist; each idle worker steals queued tests from a busy one);
# `make test TEST_JOBS=0` runs them in this process. Hypothesis is derandomised (tests/conftest.py).
# Bytecode is cached (__pycache__, git-ignored) even where PYTHONDONTWRITEBYTECODE is set: the tests start ~100
# Python processes (CLI runs, report workers) that would otherwise compile the package from source each time
# (measured: 28 s less CPU per run of the suite).
TEST_JOBS ?= 2
test: setup lint
	@PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q $(if $(filter 0,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist worksteal)

test-slow: setup
	@PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -m slow

benchmarks: setup
	@$(PY) benchmarks/run.py

# issue 9 item 4: every fast claim under two BLAS configurations (threads 1 / 2, OPENBLAS_CORETYPE
# Sandybridge / unset); fails when verification.json differs beyond the 'seconds' fields
# (and again with the result cache on, shared by both configurations: the BLAS variables are in every key)
determinism: setup
	@$(PY) scripts/determinism.py --out reports/determinism
	@rm -rf reports/determinism/cache
	@$(PY) scripts/determinism.py --out reports/determinism --sequential --cache reports/determinism/cache

# issue 14: the 10-minute Adult runs (PolyOpt and NR, eps 0.5/1/2, both large pairs, '?' kept too): ~2.5 h
bench-polyopt-large: setup
	@$(PY) benchmarks/bench_polyopt_large.py --only adult --full --with-missing

# The API reference (Sphinx autodoc + napoleon) in docs/_build/html; -W: a warning fails the build
# (tests/test_docs.py builds it in the test command too).
docs: setup
	@$(PY) -m sphinx -W -q -b html docs docs/_build/html

# Mutation testing of the checker (issue 9; long, not CI): semantic mutants (mutation/catalogue.py) and
# mutmut over the core numeric modules; both write reports/mutation.json. MUTATION_SAMPLE=0 runs every
# generic mutant; MUTATION_DEADLINE=HH:MM (UTC) interrupts the generic run then (the finished part is reported).
MUTATION_SAMPLE ?= 500
MUTATION_SEED ?= 20261126
MUTATION_JOBS ?= 2
# the options of the measured run (see scripts/mutation_generic.py): no separate clean run (stats collection ran
# every selected test unmutated); the whole sample in one `mutmut run` (--batch 0: batches of 50 paid mutmut's
# test listing and forced-fail run each time and left a core idle at each batch's tail, 65 min on 5ea6cf8);
# no re-run of timed-out mutants (the one retried at 10x on 5ea6cf8 timed out again, 330 s)
MUTATION_GENERIC_ARGS ?= --skip-clean-run --batch 0
# the two layers run concurrently (mutmut's stats stage and its survivors leave a core idle most of the time);
# each writes its own section of reports/mutation.json under a lock
mutation: setup
	@$(MAKE) --no-print-directory -j2 mutation-semantic mutation-generic

mutation-semantic: setup
	@$(PY) -m rldp_verify.claims.mutants run --catalogue mutation.catalogue --jobs $(MUTATION_JOBS) --out reports/mutation.json

mutation-generic: setup
	@$(PY) -m pip install -q "mutmut>=3.8,<4"
	@$(PY) scripts/mutation_generic.py --sample $(MUTATION_SAMPLE) --seed $(MUTATION_SEED) --jobs $(MUTATION_JOBS) \
		$(if $(MUTATION_DEADLINE),--deadline $(MUTATION_DEADLINE),) $(MUTATION_GENERIC_ARGS)

# one semantic mutant, every claim it lists (e.g. make mutation-one M=thm1.bs-chi2-radius)
mutation-one: setup
	@$(PY) -m rldp_verify.claims.mutants run --catalogue mutation.catalogue --only "$(M)" --all-killers
