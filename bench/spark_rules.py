#!/usr/bin/env python3
"""Where the Spark job's time goes (docs/performance.md "The rules on Spark and DuckDB"): on a tables folder, the
way the local job reads it (spark/fanout_check.py: pyarrow's Parquet copy written beside the session's start,
read by columns and not cached; the Parquet of `fanout tables --format parquet` as it is), the seconds and CPU seconds of the session, of the conversion, of each shared
view (`fanout sql --shared-views`), of each rule's query alone (its rows computed and dropped: Spark's `noop`
writer) and of the union of all rules, which the job runs; with --duckdb the same for DuckDB (its load, views and
queries). CPU seconds are of this process and every process it started (the JVM), read from /proc: on a shared
machine they move less with the load than wall time.

    .build/sql-venv/bin/python bench/spark_rules.py TABLES_DIR [--rules R1,R2] [--no-union] [--duckdb] [--fanout BIN]

The first queries also pay for the JIT compiling Spark's code: the rules one by one add up to more than the union,
which runs after them.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "spark"))
import fanout_job  # noqa: E402


def queries(fanout, tables, dialect):
    command = [fanout, "sql", tables, "--dialect", dialect, "--format", "json", "--shared-views"]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def cpu_seconds():
    """User and system seconds of this process and its descendants that are running (the JVM), from /proc."""
    children, ticks = {}, {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(pid))
                ticks[int(pid)] = int(fields[11]) + int(fields[12])
            except (OSError, IndexError, ValueError):
                pass
    total, stack = 0, [os.getpid()]
    while stack:
        pid = stack.pop()
        total += ticks.get(pid, 0)
        stack += children.get(pid, [])
    return total / os.sysconf("SC_CLK_TCK")


def timed(label, work):
    started, cpu = time.monotonic(), cpu_seconds()
    result = work()
    print(f"{label:32s} {time.monotonic() - started:7.2f} s {cpu_seconds() - cpu:7.1f} CPU-s", flush=True)
    return result


def spark(args, manifest, sql):
    import fanout_check
    scratch = tempfile.mkdtemp(prefix="fanout-spark-rules-", dir=args.scratch)
    parquet = os.path.join(scratch, "parquet")
    try:
        # As the job does: the conversion on a thread while the JVM starts, then what is left of it; Parquet tables
        # (`fanout tables --format parquet`) are read as they are.
        written = fanout_job.is_parquet(manifest)
        converted = (lambda: None) if written else \
            fanout_check.beside(lambda: fanout_check.arrow_parquet(args.tables, manifest, parquet))
        archive = {}
        session = timed("session", lambda: fanout_check.session("local[2]", fanout_check.input_size([args.tables]), archive))
        if not written:
            timed("parquet (what is left)", converted)
        try:
            fanout_check.load(session, args.tables, manifest, parquet=None if written else parquet)
            for view in sql.get("views", []):
                timed(f"  view {view['name']}", lambda: fanout_check.materialized(session, view["name"], view["sql"]))
            for query in sql["queries"]:
                if not args.rules or query["rule"] in args.rules:
                    timed(f"  {query['rule']}", lambda: session.sql(query["sql"]).write.format("noop").mode("overwrite").save())
            if args.union:
                union = "\nUNION ALL\n".join(f"SELECT * FROM (\n{q['sql']}\n)" for q in sql["queries"])
                timed("union of the rules", lambda: session.sql(union).write.format("noop").mode("overwrite").save())
        finally:
            fanout_check.stopped(session, archive)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def duckdb(args, manifest, sql):
    import duckdb as engine
    import fanout_duckdb
    con = engine.connect()
    timed("load", lambda: fanout_duckdb.load(con, args.tables, manifest))
    for view in sql.get("views", []):
        timed(f"  view {view['name']}", lambda: con.execute(f'CREATE OR REPLACE TEMPORARY TABLE "{view["name"]}" AS {view["sql"]}'))
    for query in sql["queries"]:
        if not args.rules or query["rule"] in args.rules:
            timed(f"  {query['rule']}", lambda: con.sql(query["sql"]).fetchall())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables")
    parser.add_argument("--rules", type=lambda s: set(s.split(",")), default=None)
    parser.add_argument("--no-union", dest="union", action="store_false")
    parser.add_argument("--duckdb", action="store_true")
    parser.add_argument("--fanout", default=os.environ.get("FANOUT", "fanout"))
    parser.add_argument("--scratch", default=None, help="where the Parquet copy goes (default: beside the tables)")
    args = parser.parse_args()
    args.scratch = args.scratch or os.path.dirname(os.path.abspath(args.tables))
    manifest = fanout_job.read_manifest(args.tables)
    dialect = "duckdb" if args.duckdb else "spark"
    (duckdb if args.duckdb else spark)(args, manifest, queries(args.fanout, args.tables, dialect))


if __name__ == "__main__":
    main()
