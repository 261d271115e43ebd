"""What the Spark job (fanout_check.py) and the DuckDB runner (fanout_duckdb.py) share: reading a tables folder
of `fanout tables`, getting the rules' SQL from `fanout sql --format json`, turning finding rows into the JSON
report (format version 1, the shape `fanout check --format json` writes) and writing the output folder atomically.
docs/tables.md. With --diff NEW_TABLES_DIR, the comparison of two tables folders (`fanout sql --diff`), written as
the JSON report `fanout diff --format json` writes (docs/diff-and-history.md).
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time

# Exit codes (docs/tables.md).
EXIT_OK = 0
EXIT_USAGE = 2      # bad arguments, a folder that is not a tables folder, rows that do not fit the manifest
EXIT_SQL = 3        # `fanout sql` missing or failing
EXIT_ENGINE = 4     # the engine failed (no Java, a failed Spark job)
EXIT_OUTPUT = 5     # the output folder cannot be written

MARK = ".fanout-output"
DERIVED = ("timelines", "post_stats", "likers")


class JobError(Exception):
    """One clear message and the exit code that goes with it."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def arguments(description, engine):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("tables", metavar="TABLES_DIR", help="the folder `fanout tables` wrote")
    parser.add_argument("--out", required=True, metavar="OUT_DIR",
                        help="the folder to write report.json (and with --derived the derived tables) into")
    parser.add_argument("--derived", action="store_true",
                        help="also write timelines, post_stats and likers as NDJSON tables")
    parser.add_argument("--rule", action="append", default=[], metavar="RULE=SETTING",
                        help="switch a rule off or re-grade it, as `fanout check --rule` (repeatable)")
    parser.add_argument("--fanout", default=os.environ.get("FANOUT", "fanout"), metavar="PATH",
                        help="the fanout binary that prints the SQL (default: $FANOUT, else fanout on PATH)")
    parser.add_argument("--diff", metavar="NEW_TABLES_DIR",
                        help="compare TABLES_DIR (the older export's tables) with these (the newer one's) and write "
                             "OUT_DIR/diff.json, as `fanout diff --format json` writes it")
    if engine == "spark":
        parser.add_argument("--master", help="Spark master URL (default: spark-submit's --master, else local[2])")
        parser.add_argument("--export", metavar="EXPORT",
                            help="first write TABLES_DIR from this export (a plain JSON file every executor can read): "
                                 "its parts read by `fanout tables --part K/N` as Spark tasks, then Parquet")
        parser.add_argument("--parts", type=int, default=None, metavar="N",
                            help="with --export, the number of parts (default: the cluster's default parallelism)")
        parser.add_argument("--schema", metavar="NAME|FILE",
                            help="with --export, the export's layout, as `fanout tables --schema` takes it (default: detected)")
        parser.add_argument("--fanout-on-path", action="store_true",
                            help="with --export, executors run the fanout on their PATH instead of the one shipped with the job")
    return parser


# MARK: timings

class PhaseClock:
    """With FANOUT_TIMINGS=1, prints `timing PHASE SECONDS` to stderr as each phase ends, as `fanout` does
    (docs/performance.md "The rules on Spark and DuckDB"): where a run's time goes, for bench/spark."""

    enabled = os.environ.get("FANOUT_TIMINGS") == "1"

    def __init__(self):
        self.last = time.monotonic()

    def lap(self, phase):
        now = time.monotonic()
        if self.enabled:
            print(f"timing {phase} {now - self.last:.3f}", file=sys.stderr, flush=True)
        self.last = now


CLOCK = PhaseClock()


# MARK: tables

def read_manifest(folder):
    path = os.path.join(folder, "_manifest.json")
    if not os.path.isdir(folder):
        raise JobError(f"{folder}: no such folder; give the folder `fanout tables` wrote", EXIT_USAGE)
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
    except FileNotFoundError:
        raise JobError(f"{folder}: not a tables folder (no _manifest.json); give the folder `fanout tables` wrote", EXIT_USAGE)
    except (ValueError, UnicodeDecodeError) as e:
        raise JobError(f"{path}: not valid JSON: {e}", EXIT_USAGE)
    if not isinstance(manifest, dict) or manifest.get("tool") != "fanout" or manifest.get("format_version") != 1:
        raise JobError(f"{path}: not a manifest of `fanout tables` (format_version 1)", EXIT_USAGE)
    return manifest


def table_files(folder, manifest, table):
    """The table's part files the manifest lists (missing ones are an error: the folder is incomplete)."""
    spec = manifest["tables"][table]
    files = [os.path.join(folder, f) for f in spec.get("files", [])]
    for f in files:
        if not os.path.isfile(f):
            raise JobError(f"{f}: missing, though {folder}/_manifest.json lists it", EXIT_USAGE)
    return files


def is_parquet(manifest):
    """Whether `fanout tables --format parquet` wrote the tables: Parquet parts with the manifest's types as their
    columns' (docs/tables.md "Parquet"), which the engines read directly, without a JSON parse or a conversion."""
    return manifest.get("options", {}).get("format", "ndjson") == "parquet"


def duckdb_type(spark_type):
    """A manifest column type (Spark DDL) in DuckDB's spelling."""
    t = spark_type.strip()
    scalar = {"string": "VARCHAR", "bigint": "BIGINT", "double": "DOUBLE", "boolean": "BOOLEAN"}
    if t in scalar:
        return scalar[t]
    m = re.fullmatch(r"array<(.*)>", t)
    if m:
        return duckdb_type(m.group(1)) + "[]"
    m = re.fullmatch(r"struct<(.*)>", t)
    if m:
        return "STRUCT(" + ", ".join(f'"{name}" {duckdb_type(kind)}' for name, kind in struct_fields(m.group(1))) + ")"
    raise JobError(f"unknown column type {spark_type!r} in the manifest", EXIT_USAGE)


def struct_fields(body):
    """The (name, type) pairs of a struct type's body (`a:string,b:array<string>`), split at its top-level commas."""
    fields, depth, start = [], 0, 0
    for i, c in enumerate(body + ","):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == "," and depth == 0:
            name, _, kind = body[start:i].partition(":")
            fields.append((name, kind))
            start = i + 1
    return fields


# MARK: SQL

def fanout_sql(fanout, folder, dialect, rules, derived, new_folder=None):
    """The queries of `fanout sql --format json`; for the rules, with the relations they share as `views`
    (`--shared-views`), which the engine makes once before the queries read them (`shared_views`)."""
    command = [fanout, "sql", folder, "--dialect", dialect, "--format", "json", "--shared-views"]
    if new_folder:
        command[2:3] = ["--diff", folder, new_folder]
        command.remove("--shared-views")
    for rule in rules:
        command += ["--rule", rule]
    if derived:
        command.append("--derived")
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        raise JobError(f"cannot run {fanout}: {e.strerror}; give --fanout PATH or set FANOUT", EXIT_SQL)
    if result.returncode != 0:
        message = result.stderr.strip() or f"exit status {result.returncode}"
        raise JobError(f"{' '.join(command[:3])} failed: {message}", EXIT_USAGE if result.returncode == 2 else EXIT_SQL)
    return json.loads(result.stdout)


# MARK: findings

def json_value(text):
    """A finding's expected/actual/fix value: JSON text from the query, or SQL null (the report's null)."""
    if text is None:
        return None
    value = json.loads(text)
    # Swift writes whole-number doubles that fit 64 bits as integers (JSONValueConvertible).
    if isinstance(value, float) and value.is_integer() and -2**63 <= value < 2**63:
        return int(value)
    return value


def finding(row):
    """A finding row (a dict of the query's columns) in the JSON report's shape. `expected`/`actual` are JSON
    text, where the text `null` is the value null (a missing entry) and SQL NULL is no single value at all
    (`key-invalid` expects none): the report writes both as null and names the second in `no_value`, as
    `check --format json` does."""
    fix = {}
    for entry in row["fix"] or []:
        fix[entry["path"]] = json_value(entry["value"])
    result = {
        "actual": json_value(row["actual"]),
        "expected": json_value(row["expected"]),
        "fix": fix,
        "message": row["message"],
        "paths": list(row["paths"] or []),
        "rule": row["rule"],
        "severity": row["severity"],
    }
    no_value = [key for key in ("expected", "actual") if row[key] is None]
    if no_value:
        result["no_value"] = no_value
    return result


def shared_views(sql, make):
    """Makes each view the rules' queries read (`fanout sql --shared-views`), in order, by `make(name, query)`."""
    for view in sql.get("views", []):
        make(view["name"], view["sql"])
    CLOCK.lap("views")


def run_queries(sql, rows):
    """The findings by rule and the derived rows by table, `rows(query)` giving a query's rows as dicts."""
    findings = {q["rule"]: [finding(r) for r in rows(q["sql"])] for q in sql["queries"]}
    derived = {q["name"]: list(rows(q["sql"])) for q in sql.get("derived", [])}
    return findings, derived


class OrderedFindings:
    """A run's findings in the report's order (catalog order, then first path, then message, as `check` orders
    them) and their number per severity: what report.json is written from, streamed, so that a run's findings
    need not all be in memory at once (the Spark job reads them back from the part files its executors wrote)."""

    def __init__(self, severities, stream):
        self.severities = severities  # {"error": n, …}
        self.stream = stream          # a function giving an iterator of the findings in order

    @staticmethod
    def in_memory(sql, findings_by_rule):
        ordered = []
        for query in sql["queries"]:
            ordered += sorted(findings_by_rule.get(query["rule"], []), key=lambda f: ((f["paths"] or [""])[0], f["message"]))
        severities = collections.Counter(f["severity"] for f in ordered)
        return OrderedFindings(severities, lambda: iter(ordered))


# Where the findings go in the report's text, replaced by them as they are streamed.
FINDINGS_PLACE = "\ue000fanout-findings\ue000"


def report(sql, export_name, findings):
    """The JSON report (version 1), its findings (an `OrderedFindings`) left as a place to stream them into."""
    count = lambda s: findings.severities.get(s, 0)
    return {
        "export": export_name,
        "findings": FINDINGS_PLACE,
        "schema": sql["schema"],
        "summary": {
            "errors": count("error"), "info": count("info"), "warnings": count("warning"),
            "total": sum(findings.severities.values()),
            "rules_run": [q["rule"] for q in sql["queries"]],
            "rules_skipped": [{"reason": s["reason"], "rule": s["rule"]} for s in sql["skipped"]],
            # The severity each rule ran at (`--rule R=S` re-grades), which SARIF and JUnit show even for a
            # rule without findings.
            "severities": {q["rule"]: q["severity"] for q in sql["queries"]},
            # The rules of the schema's declarations, as `check --format json` lists them.
            **({"declared_rules": sql["declared_rules"]} if sql.get("declared_rules") else {}),
        },
        "tool": "fanout",
        "version": 1,
    }


# MARK: diff

def diff_rows(sql, tables, manifests, load, view, rows):
    """The rows of `fanout sql --diff`'s queries by name: both exports' tables loaded under their prefixes
    (`load(folder, manifest, prefix)`), the findings views made (`view(name, sql)`), each query run (`rows(sql)`)."""
    for folder, manifest, side in zip(tables, manifests, ("old", "new")):
        load(folder, manifest, sql[side]["prefix"])
    for v in sql["views"]:
        view(v["name"], v["sql"])
    return {q["name"]: rows(q["sql"]) for q in sql["queries"]}


def whole(value):
    """A parsed JSON value with whole-number floats as integers, as Swift writes whole doubles (and engines
    write a double column's value in exponent notation, `1.7E9`)."""
    if isinstance(value, float) and value.is_integer() and -2**63 <= value < 2**63:
        return int(value)
    if isinstance(value, dict):
        return {k: whole(v) for k, v in value.items()}
    return value


def diff_document(sql, rows):
    """The JSON report of `fanout diff` (docs/diff-and-history.md, "The JSON report") from the queries' rows."""
    counts = {r["relation"]: (r["before"], r["after"]) for r in rows["counts"]}
    data = []
    for relation in sql["relations"]:
        changes = sorted((r for r in rows["data"] if r["relation"] == relation), key=lambda r: r["path"])
        value = lambda text: whole(json.loads(text)) if text is not None else None
        pick = lambda kind: [r for r in changes if r["change"] == kind]
        data.append({
            "relation": relation, "before": counts[relation][0], "after": counts[relation][1],
            "added": [{"path": r["path"], "value": value(r["new_value"])} for r in pick("added")],
            "removed": [{"path": r["path"], "value": value(r["old_value"])} for r in pick("removed")],
            "changed": [{"path": r["path"], "old": value(r["old_value"]), "new": value(r["new_value"])} for r in pick("changed")],
        })
    order = {q["rule"]: i for i, q in enumerate(sql["rules"])}
    def findings(kind):
        found = [finding(r) for r in rows["findings"] if r["change"] == kind]
        return sorted(found, key=lambda f: (order.get(f["rule"], len(order)), (f["paths"] or [""])[0], f["message"]))
    new, fixed = findings("new"), findings("fixed")
    per_rule = {r["rule"]: (r["before"], r["after"]) for r in rows["rule_counts"]}
    rules = [{
        "rule": q["rule"], "severity": q["severity"],
        "before": per_rule.get(q["rule"], (0, 0))[0], "after": per_rule.get(q["rule"], (0, 0))[1],
        "new": sum(1 for f in new if f["rule"] == q["rule"]), "fixed": sum(1 for f in fixed if f["rule"] == q["rule"]),
    } for q in sql["rules"]]
    count = lambda s: sum(1 for f in new if f["severity"] == s)
    return {
        "tool": "fanout", "kind": "diff", "version": 1, "schema": sql["schema"],
        "old": {"export": sql["old"]["export"]}, "new": {"export": sql["new"]["export"]},
        "data": data,
        "audit": {
            "summary": {"new": len(new), "new_errors": count("error"), "new_warnings": count("warning"),
                        "new_info": count("info"), "fixed": len(fixed),
                        "unchanged": sum(after for _, after in per_rule.values()) - len(new)},
            "rules": rules, "new": new, "fixed": fixed,
        },
    }


def run_diff(args, engine_run):
    """--diff: checks both folders, gets the SQL, calls `engine_run(manifests, sql)` (which returns the queries'
    rows by name) and writes OUT_DIR/diff.json. Returns the exit code."""
    def work(stage):
        if args.derived:
            raise JobError("--derived goes with one tables folder, not with --diff", EXIT_USAGE)
        folders = (args.tables, args.diff)
        manifests = [read_manifest(folder) for folder in folders]
        for folder, manifest in zip(folders, manifests):
            for table in manifest["tables"]:
                table_files(folder, manifest, table)
        sql = fanout_sql(args.fanout, args.tables, args.dialect, args.rule, False, new_folder=args.diff)
        staged = stage()
        document = diff_document(sql, engine_run(manifests, sql))
        with open(staged.path("diff.json"), "w", encoding="utf-8") as f:
            f.write(dumps(document, indent=2) + "\n")
    return written(args.out, work)


def dumps(value, indent=None):
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=indent, allow_nan=False)


def write_report(f, sql, export_name, findings):
    """report.json as `dumps(report, indent=2)` writes it, byte for byte, with the findings written one at a time
    into their place (an element of the top-level array is indented by four spaces)."""
    before, after = dumps(report(sql, export_name, findings), indent=2).split(dumps(FINDINGS_PLACE))
    f.write(before)
    first = True
    for item in findings.stream():
        f.write("[\n    " if first else ",\n    ")
        f.write(dumps(item, indent=2).replace("\n", "\n    "))
        first = False
    f.write("[]" if first else "\n  ]")
    f.write(after + "\n")


# MARK: output

class StagedFolder:
    """OUT_DIR written beside itself (`.NAME.fanout-tmp-PID`) and moved into place when complete; a folder Fanout
    did not write (no .fanout-output mark) is never replaced."""

    def __init__(self, out):
        self.out = os.path.abspath(out)
        parent, name = os.path.split(self.out)
        if os.path.exists(self.out):
            if not os.path.isdir(self.out):
                raise JobError(f"{out}: exists and is not a folder; nothing was written", EXIT_OUTPUT)
            if os.listdir(self.out) and not os.path.exists(os.path.join(self.out, MARK)):
                raise JobError(f"{out}: not empty and not written by fanout (no {MARK}); nothing was written", EXIT_OUTPUT)
        self.stage = os.path.join(parent, f".{name}.fanout-tmp-{os.getpid()}")
        try:
            os.makedirs(parent, exist_ok=True)
            shutil.rmtree(self.stage, ignore_errors=True)
            os.mkdir(self.stage)
            open(os.path.join(self.stage, MARK), "w").close()
        except OSError as e:
            raise JobError(f"{out}: cannot write in {parent}: {e.strerror}; nothing was written", EXIT_OUTPUT)

    def path(self, *parts):
        return os.path.join(self.stage, *parts)

    def commit(self):
        old = None
        if os.path.exists(self.out):
            old = self.stage + "-old"
            os.rename(self.out, old)
        os.rename(self.stage, self.out)
        if old:
            shutil.rmtree(old, ignore_errors=True)

    def discard(self):
        shutil.rmtree(self.stage, ignore_errors=True)


def write_rows(path, rows):
    """NDJSON, one row a line, keys in the query's column order."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n")


def written(out, work):
    """Runs `work(stage)`, which checks its input, calls `stage()` for OUT_DIR's staged folder once the input is
    known good, and writes into it; the folder is moved into place when `work` returns and deleted on any error.
    Returns the exit code: 0, or the JobError's after its one message."""
    staged = []

    def stage():
        staged.append(StagedFolder(out))
        return staged[-1]
    try:
        work(stage)
        for folder in staged:
            folder.commit()
        return EXIT_OK
    except JobError as e:
        for folder in staged:
            folder.discard()
        print(f"Error: {e}", file=sys.stderr)
        return e.code
    except BaseException:
        for folder in staged:
            folder.discard()
        raise


def run(args, engine_run):
    """Parses nothing: checks the input, gets the SQL, calls `engine_run(manifest, sql, staged)` (which returns
    the findings, by rule or as `OrderedFindings`, and with --derived the derived rows by table; `staged` is the
    output folder being written, where an engine may keep files of its own until the report is written) and
    writes OUT_DIR. Returns the exit code."""
    def work(stage):
        manifest = read_manifest(args.tables)
        for table in manifest["tables"]:
            table_files(args.tables, manifest, table)
        sql = fanout_sql(args.fanout, args.tables, args.dialect, args.rule, args.derived)
        CLOCK.lap("sql")
        staged = stage()
        findings, derived = engine_run(manifest, sql, staged)
        if not isinstance(findings, OrderedFindings):
            findings = OrderedFindings.in_memory(sql, findings)
        with open(staged.path("report.json"), "w", encoding="utf-8") as f:
            write_report(f, sql, manifest.get("export", {}).get("name"), findings)
        for name, rows in derived.items():
            write_rows(staged.path(name, "part-00000.ndjson"), rows)
    code = written(args.out, work)
    if code == EXIT_OK:
        CLOCK.lap("report")
    return code
