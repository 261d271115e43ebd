#!/usr/bin/env python3
"""Runs Fanout's rules (`fanout sql --dialect spark`) on a tables folder of `fanout tables` with Spark and writes
OUT_DIR/report.json, the JSON report `fanout check --format json` writes; with --derived also the timelines,
post stats and likers as NDJSON tables. README "Exports bigger than one machine".

    python3 spark/fanout_check.py TABLES_DIR --out OUT_DIR [--master local[2]] [--derived] [--rule RULE=SETTING]…
    python3 spark/fanout_check.py OLD_TABLES_DIR --diff NEW_TABLES_DIR --out OUT_DIR …   (OUT_DIR/diff.json)
    spark-submit spark/fanout_check.py TABLES_DIR --out OUT_DIR …

Exit codes: 0 report written; 2 bad arguments or input (not a tables folder, rows that do not fit the manifest);
3 `fanout sql` missing or failing; 4 Spark failed (no Java, a failed job); 5 OUT_DIR cannot be written.
"""
import logging
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fanout_job  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def session(master="local[2]"):
    """A quiet, offline Spark session: errors only (conf/log4j2.properties), no UI or progress bar, loopback
    only, few shuffle partitions. Driver settings apply only when Python starts the JVM (plain python3)."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("SPARK_CONF_DIR", os.path.join(HERE, "conf"))
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # PySpark 4 logs each SQL error with a Java stack before raising it; the exception says it once.
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    from pyspark.sql import SparkSession
    builder = (SparkSession.builder.master(master).appName("fanout-check")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.default.parallelism", "2")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.warehouse.dir", os.path.join(tempfile.gettempdir(), "fanout-spark-warehouse"))
               .config("spark.sql.caseSensitive", "true")
               # Re-planning between stages costs more than it saves on the many small queries of a run.
               .config("spark.sql.adaptive.enabled", "false")
               .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"))
    if master.startswith("local"):
        builder = builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
    return builder.getOrCreate()


def load(spark, folder, manifest, prefix=""):
    """Each table as a temporary view typed by the manifest, named `prefix` + the table (FAILFAST: a row that does
    not fit is an error, not nulls); a table without parts is an empty typed view."""
    for table, spec in manifest["tables"].items():
        ddl = ", ".join(f"`{c['name']}` {c['type']}" for c in spec["columns"])
        files = fanout_job.table_files(folder, manifest, table)
        frame = (spark.read.schema(ddl).option("mode", "FAILFAST").json(files) if files
                 else spark.createDataFrame([], ddl))
        # Every rule's query reads the tables again: read each once.
        frame.cache().createOrReplaceTempView(prefix + table)


def cause(error):
    """The Java cause chain's messages: the first line of a Py4J error names only the call."""
    messages, java = [], getattr(error, "java_exception", None)
    while java is not None:
        messages.append(java.toString())
        java = java.getCause()
    return messages[-1] if messages else str(error).strip().splitlines()[0]


def findings(spark, queries):
    """The finding rows of every rule's query, from one Spark job: the queries' union (they all return the
    finding columns). Spark plans and schedules each job anew, which on a small machine costs more than the
    rules' work, so one job rather than one per rule; the rows are collected, as the report holds them all."""
    if not queries:
        return []
    union = "\nUNION ALL\n".join(f"SELECT * FROM (\n{q['sql']}\n)" for q in queries)
    return [row.asDict(recursive=True) for row in spark.sql(union).collect()]


def engine_errors(folder, work):
    """`work()`, with Spark's errors as the job's: rows that do not fit the manifest are bad input."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException
    try:
        return work()
    except (Py4JJavaError, PySparkException) as e:
        text = cause(e)
        if "MALFORMED_RECORD" in text or "CANNOT_PARSE_JSON" in text or "JsonParseException" in text:
            raise fanout_job.JobError(f"{folder}: rows that do not fit the manifest: {text}", fanout_job.EXIT_USAGE)
        raise fanout_job.JobError(f"Spark failed: {text}", fanout_job.EXIT_ENGINE)


def collect(spark, query):
    return [row.asDict(recursive=True) for row in spark.sql(query).collect()]


def engine_run(spark, folder):
    def run(manifest, sql):
        def work():
            load(spark, folder, manifest)
            return fanout_job.run_queries(sql, lambda query: collect(spark, query),
                                          all_findings=lambda queries: findings(spark, queries))
        return engine_errors(folder, work)
    return run


def diff_run(spark, folders):
    """--diff: both folders' tables, the findings views (cached, so that each is computed once), the queries."""
    def run(manifests, sql):
        view = lambda name, query: spark.sql(query).cache().createOrReplaceTempView(name)
        return engine_errors(" and ".join(folders), lambda: fanout_job.diff_rows(
            sql, folders, manifests, lambda f, m, p: load(spark, f, m, p), view, lambda query: collect(spark, query)))
    return run


def main(argv=None):
    args = fanout_job.arguments(__doc__.splitlines()[0], "spark").parse_args(argv)
    args.dialect = "spark"
    try:
        import pyspark  # noqa: F401
    except ImportError:
        print("Error: the pyspark module is missing; pip install pyspark", file=sys.stderr)
        return fanout_job.EXIT_ENGINE
    holder = {}

    def start():
        # The session starts only once the input and the SQL are known to be good (it takes seconds).
        try:
            holder["spark"] = session(args.master)
        except Exception as e:  # no Java, a master that cannot be reached
            raise fanout_job.JobError(f"cannot start Spark ({args.master}): {cause(e)}", fanout_job.EXIT_ENGINE)
        return holder["spark"]

    def lazily(manifest, sql):
        return engine_run(start(), args.tables)(manifest, sql)

    def lazily_diff(manifests, sql):
        return diff_run(start(), (args.tables, args.diff))(manifests, sql)

    try:
        if args.diff:
            return fanout_job.run_diff(args, lazily_diff)
        return fanout_job.run(args, lazily)
    finally:
        if "spark" in holder:
            holder["spark"].stop()


if __name__ == "__main__":
    sys.exit(main())
