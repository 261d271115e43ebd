#!/usr/bin/env python3
"""Runs Fanout's rules (`fanout sql --dialect duckdb`) on a tables folder with DuckDB, on one machine; the same
arguments and output as fanout_check.py, the Spark job. docs/tables.md.

    python3 spark/fanout_duckdb.py TABLES_DIR --out OUT_DIR [--derived] [--rule RULE=SETTING]…
    python3 spark/fanout_duckdb.py OLD_TABLES_DIR --diff NEW_TABLES_DIR --out OUT_DIR [--rule RULE=SETTING]…
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fanout_job  # noqa: E402


def load(con, folder, manifest, prefix=""):
    """Each table read once from its parts into a temporary table named `prefix` + the table (DuckDB's columns in
    memory, spilled to disk past its memory limit), typed by the manifest: every rule's query reads the tables
    again, and parsing their JSON once costs less than parsing it per query. Parquet parts (`fanout tables --format
    parquet`) are not copied: each table is a view of them, each column cast to the manifest's type (the same
    types: the casts cost nothing), which every query reads again, only the columns it names: the copy cost more
    than the views save, about 8 CPU-s on the 1.1 GB export's tables (docs/performance.md "The rules on Spark and
    DuckDB").
    A table without parts is empty (DuckDB's read_json needs at least one file)."""
    parquet = fanout_job.is_parquet(manifest)
    for table, spec in manifest["tables"].items():
        columns = spec["columns"]
        files = fanout_job.table_files(folder, manifest, table)
        typed = ", ".join(f"'{c['name']}': '{fanout_job.duckdb_type(c['type'])}'" for c in columns)
        if files:
            listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
            if parquet:
                cast = ", ".join(f"CAST(\"{c['name']}\" AS {fanout_job.duckdb_type(c['type'])}) AS \"{c['name']}\"" for c in columns)
                source = f"(SELECT {cast} FROM read_parquet([{listed}]))"
            else:
                source = f"read_json([{listed}], format = 'newline_delimited', columns = {{{typed}}})"
        else:
            nulls = ", ".join(f"CAST(NULL AS {fanout_job.duckdb_type(c['type'])}) AS \"{c['name']}\"" for c in columns)
            source = f"(SELECT {nulls} WHERE false)"
        # Parquet is read where a query needs it, only the columns it names: a view, not a copy.
        kind = "VIEW" if parquet and files else "TABLE"
        con.execute(f'CREATE OR REPLACE TEMPORARY {kind} "{prefix}{table}" AS SELECT * FROM {source}')
    fanout_job.CLOCK.lap("load")


def rows(con, sql):
    relation = con.sql(sql)
    names = [d[0] for d in relation.description]
    return [dict(zip(names, values)) for values in relation.fetchall()]


def engine_errors(folder, work):
    """`work()`, with DuckDB's errors as the job's: rows that do not fit the manifest are bad input."""
    import duckdb
    try:
        return work()
    except duckdb.InvalidInputException as e:
        raise fanout_job.JobError(f"{folder}: rows that do not fit the manifest: {e}", fanout_job.EXIT_USAGE)
    except duckdb.Error as e:
        raise fanout_job.JobError(f"DuckDB failed: {e}", fanout_job.EXIT_ENGINE)


def engine_run(con, folder):
    def run(manifest, sql, staged=None):
        return engine_errors(folder, lambda: (
            load(con, folder, manifest),
            fanout_job.shared_views(sql, lambda name, query: con.execute(f'CREATE OR REPLACE TEMPORARY TABLE "{name}" AS {query}')),
            fanout_job.run_queries(sql, lambda query: rows(con, query)))[2])
    return run


def diff_run(con, folders):
    """--diff: both folders' tables, the findings views (tables, so that each is computed once), the queries."""
    def run(manifests, sql):
        view = lambda name, query: con.execute(f'CREATE OR REPLACE TEMP TABLE "{name}" AS {query}')
        return engine_errors(" and ".join(folders), lambda: fanout_job.diff_rows(
            sql, folders, manifests, lambda f, m, p: load(con, f, m, p), view, lambda query: rows(con, query)))
    return run


def main(argv=None):
    args = fanout_job.arguments(__doc__.splitlines()[0], "duckdb").parse_args(argv)
    args.dialect = "duckdb"
    try:
        import duckdb
    except ImportError:
        print("Error: the duckdb module is missing; pip install duckdb", file=sys.stderr)
        return fanout_job.EXIT_ENGINE
    if args.diff:
        return fanout_job.run_diff(args, diff_run(duckdb.connect(), (args.tables, args.diff)))
    return fanout_job.run(args, engine_run(duckdb.connect(), args.tables))


if __name__ == "__main__":
    sys.exit(main())
