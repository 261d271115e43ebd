#!/usr/bin/env python3
"""Where the Spark job's time goes (docs/performance.md "The rules on Spark and DuckDB"): on a tables folder, in
the job's own local session (spark/fanout_check.py's `session`, sized to the tables), the seconds of the session,
of reading and caching each table, of each shared view (`fanout sql --shared-views`), of each rule's query alone
(its rows computed and dropped: Spark's `noop` writer), and of the union of all rules, which the job runs; with
--duckdb the same for DuckDB (its load, views and queries).

    .build/sql-venv/bin/python bench/spark_rules.py TABLES_DIR [--rules R1,R2] [--no-union] [--duckdb] [--fanout BIN]

The first queries also pay for the JIT compiling Spark's code: the rules one by one add up to more than the union,
which runs after them.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "spark"))
import fanout_job  # noqa: E402


def queries(fanout, tables, dialect):
    command = [fanout, "sql", tables, "--dialect", dialect, "--format", "json", "--shared-views"]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def timed(label, work):
    started = time.monotonic()
    result = work()
    print(f"{label:32s} {time.monotonic() - started:7.2f} s", flush=True)
    return result


def spark(args, manifest, sql):
    import fanout_check
    session = timed("session", lambda: fanout_check.session("local[2]", fanout_check.input_size([args.tables])))
    try:
        fanout_check.load(session, args.tables, manifest)
        for table, spec in manifest["tables"].items():
            if spec.get("rows", 1) > 0:
                timed(f"  read and cache {table}", lambda: session.table(table).write.format("noop").mode("overwrite").save())
        for view in sql.get("views", []):
            timed(f"  view {view['name']}", lambda: fanout_check.materialized(session, view["name"], view["sql"]))
        for query in sql["queries"]:
            if not args.rules or query["rule"] in args.rules:
                timed(f"  {query['rule']}", lambda: session.sql(query["sql"]).write.format("noop").mode("overwrite").save())
        if args.union:
            union = "\nUNION ALL\n".join(f"SELECT * FROM (\n{q['sql']}\n)" for q in sql["queries"])
            timed("union of the rules", lambda: session.sql(union).write.format("noop").mode("overwrite").save())
    finally:
        session.stop()


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
    args = parser.parse_args()
    manifest = fanout_job.read_manifest(args.tables)
    dialect = "duckdb" if args.duckdb else "spark"
    (duckdb if args.duckdb else spark)(args, manifest, queries(args.fanout, args.tables, dialect))


if __name__ == "__main__":
    main()
