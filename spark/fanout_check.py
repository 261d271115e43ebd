#!/usr/bin/env python3
"""Runs Fanout's rules (`fanout sql --dialect spark`) on a tables folder of `fanout tables` with Spark and writes
OUT_DIR/report.json, the JSON report `fanout check --format json` writes; with --derived also the timelines,
post stats and likers as NDJSON tables. docs/tables.md.

    python3 spark/fanout_check.py TABLES_DIR --out OUT_DIR [--master local[2]] [--derived] [--rule RULE=SETTING]…
    python3 spark/fanout_check.py OLD_TABLES_DIR --diff NEW_TABLES_DIR --out OUT_DIR …   (OUT_DIR/diff.json)
    spark-submit spark/fanout_check.py TABLES_DIR --out OUT_DIR …

Exit codes: 0 report written; 2 bad arguments or input (not a tables folder, rows that do not fit the manifest);
3 `fanout sql` missing or failing; 4 Spark failed (no Java, a failed job); 5 OUT_DIR cannot be written.
"""
import json
import logging
import os
import shlex
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fanout_job  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def session(master=None, input_bytes=0, archive=None):
    """A quiet, offline Spark session: errors only (conf/log4j2.properties), no UI or progress bar. Its master is
    `master`, else spark-submit's (--master), else local[2] for plain python3. In local mode (one machine, a few
    cores) also loopback only, a shuffle partition per core and no adaptive execution, which costs more than it
    saves on the many small stages of a run; on a cluster, partitions, parallelism and adaptive execution are the
    cluster's (Spark's defaults, or spark-submit --conf). Driver settings apply only when Python starts the JVM:
    in local mode, where the driver's JVM is every executor too, its heap and JIT follow `input_bytes` (the tables'
    bytes, or the export's with --export; `local_jvm`). A local JVM that Python starts loads Spark's classes from
    the class-data archive (spark/class_archive.py) when `archive` is a dict: the session's archive is put in it
    under "archive", and the caller passes it to `stopped` at the end."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # PySpark 4 logs each SQL error with a Java stack before raising it; the exception says it once.
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    from pyspark.sql import SparkSession
    # Under spark-submit, its --master holds (the JVM already has it); plain python3 starts a local one.
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ
    master = master or (None if submitted else "local[2]")
    if master and master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = SparkSession.builder.master(master) if master else SparkSession.builder
    builder = (builder.appName("fanout-check")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.warehouse.dir", os.path.join(tempfile.gettempdir(), "fanout-spark-warehouse"))
               .config("spark.sql.caseSensitive", "true"))
    heap, classes, logs = None, None, os.path.join(HERE, "conf")
    if master and master.startswith("local"):
        heap, java = local_jvm(input_bytes)
        if archive is not None and not submitted:
            # Imported here: on a cluster (--py-files spark/fanout_job.py, docs/cluster.md) the job does not need it.
            import class_archive
            from pyspark.find_spark_home import _find_spark_home
            classes = archive["archive"] = class_archive.for_local_session(_find_spark_home())
        if classes:
            # The archive cannot hold a class path with a folder of files in it: the log configuration is named
            # instead of found in SPARK_CONF_DIR.
            log_settings = shlex.quote(f"-Dlog4j2.configurationFile={os.path.join(logs, 'log4j2.properties')}")
            java += f" {log_settings} {classes.java_options()}"
        builder = (builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                   .config("spark.default.parallelism", str(local_cores(master)))
                   .config("spark.driver.extraJavaOptions", java))
        if heap:
            # A quarter of the memory off the heap, for the sorts', aggregations' and shuffles' pages (Tungsten's
            # execution memory): on the heap the collector copied them between the young generations, which more than
            # doubled its pauses on the 1.1 GB export (docs/performance.md "The rules on Spark and DuckDB").
            off_heap = heap // 4
            builder = (builder.config("spark.driver.memory", f"{(heap - off_heap) >> 20}m")
                       .config("spark.memory.offHeap.enabled", "true")
                       .config("spark.memory.offHeap.size", f"{off_heap >> 20}m"))
    if not classes:
        os.environ.setdefault("SPARK_CONF_DIR", logs)
    spark = builder.getOrCreate()
    fanout_job.CLOCK.lap("session")
    running = spark.sparkContext.master
    if running.startswith("local") and spark.conf.get("spark.sql.shuffle.partitions") == "200":
        # Spark's default of 200 shuffle partitions is for clusters; on one machine, one per core (unless
        # spark-submit --conf chose a number).
        spark.conf.set("spark.sql.shuffle.partitions", str(local_cores(running)))
        spark.conf.set("spark.sql.adaptive.enabled", "false")
    if running.startswith("local") and not spark.sparkContext.getConf().contains(
            "spark.sql.requireAllClusterKeysForCoPartition"):
        # A join may read sides already distributed by some of its keys: `timeline-missing`'s members come
        # distributed by reader (`fanout sql`'s REPARTITION hints) and are not shuffled again by (reader, post)
        # (docs/performance.md "The rules on Spark and DuckDB"). Spark requires all
        # the keys by default against skew, which a cluster's many partitions feel and local mode's few do not.
        spark.conf.set("spark.sql.requireAllClusterKeysForCoPartition", "false")
    if running.startswith("local") and not spark.sparkContext.getConf().contains("spark.sql.autoBroadcastJoinThreshold"):
        # In local mode a broadcast is a hash table in the one JVM, not a copy sent to every executor: the live
        # users and posts (hundreds of MB on a large export) are joined by hash to the likes and timeline instead
        # of both sides being sorted. A twentieth of the heap the JVM actually has (a driver of 1 GB: 51 MB).
        limit = spark.sparkContext._jvm.java.lang.Runtime.getRuntime().maxMemory() // 20
        spark.conf.set("spark.sql.autoBroadcastJoinThreshold", str(max(limit, 10 << 20)))
    return spark


# Tables (or an export) up to this size start the JVM as the tests' small inputs want it: the client compiler
# alone and a small heap, which start fastest; larger ones get the full JIT, a parallel collector and a heap for
# the cached tables.
SMALL_INPUT = 64 << 20

# The optimizing compiler (C2) took a quarter of a large local job's CPU, some of it on the code that parses each
# query (ANTLR), compiles the code generated for it (Janino) and serializes its tasks (java.io's object streams):
# code that runs briefly per query, where C2's work does not pay back within a run. Their methods wait for ten
# times as many calls before each compiler takes them, which took a tenth off the job on the 1.1 GB export; the
# tables' loops, Spark's operators and the generated code are compiled as before (docs/performance.md "The rules on
# Spark and DuckDB").
TOOLS_COMPILED_LATER = " ".join(
    ["-XX:CompileCommand=quiet"]
    + [f"-XX:CompileCommand=CompileThresholdScaling,{pattern},10.0"
       for pattern in ("org.antlr.*::*", "org.codehaus.janino.*::*", "java.io.Object*::*")])


def local_jvm(input_bytes):
    """The memory (bytes, or None for Spark's default heap of 1 GB; `session` puts a quarter of it off the heap)
    and JVM options of a local session over `input_bytes` of input. The memory is left to the user when
    PYSPARK_SUBMIT_ARGS gives --driver-memory (which wins over the configuration), else about five times the
    input (the cached views, the broadcast hash tables, the shuffles and the sort of the findings: with twice the
    input, a 3 GB heap for the 1.5 GB of the 1.1 GB export's Parquet tables, a broadcast could fail for want of
    heap; with 6 GB, 3.5 GB stayed live after a collection late in the run, and the rules took a fifth less CPU),
    with a heap of at least 2 GB, and in all at most 40 % of this machine's memory or half of what it has available
    now (the JVM's resident memory grows past its heap, and on a shared machine the kernel's OOM killer ended a
    run whose heap had been sized from the total alone)."""
    if input_bytes <= SMALL_INPUT:
        return None, "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
    java = "-XX:+UseParallelGC " + TOOLS_COMPILED_LATER
    if "--driver-memory" in os.environ.get("PYSPARK_SUBMIT_ARGS", ""):
        return None, java
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        memory = 8 << 30
    available = memory
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    # At least 2 GB of heap beside the quarter off it.
    return max((8 << 30) // 3, min(5 * input_bytes, int(memory * 0.4), available // 2)), java


def input_size(paths):
    """The bytes of the files under `paths` (files or folders)."""
    total = 0
    for path in paths:
        if os.path.isfile(path):
            total += os.path.getsize(path)
        for root, _, files in os.walk(path):
            total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total


def local_cores(master):
    """The cores of a local master: local[2] → 2, local[*] → this machine's, local → 1."""
    cores = master[len("local["):-1] if master.startswith("local[") else "1"
    return (os.cpu_count() or 2) if cores == "*" else int(cores)


PARQUET = "parquet"


def columns(spec):
    """A table's columns as Spark DDL, from its manifest entry."""
    return ", ".join(f"`{c['name']}` {c['type']}" for c in spec["columns"])


def ndjson(spark, ddl, files):
    """NDJSON parts read with the manifest's types (FAILFAST: a row that does not fit is an error, not nulls)."""
    return spark.read.schema(ddl).option("mode", "FAILFAST").json(files)


def load(spark, folder, manifest, prefix="", parquet=None):
    """Each table as a temporary view typed by the manifest, named `prefix` + the table: its Parquet copy when
    there is one (`parquet/<table>`, written by `arrow_parquet` into a folder of the run's own, else
    `TABLES/parquet/<table>`, written by `to_parquet`), else its NDJSON parts (FAILFAST: a row that does not fit
    is an error, not nulls); a table without parts is an empty typed view. Tables that `fanout tables --format
    parquet` wrote are read from their own Parquet parts. Every rule's query reads the tables
    again: NDJSON is read once and cached; Parquet is cached only on a cluster, since in local mode reading its
    columns again costs less than building Spark's in-memory cache of every column (docs/performance.md "The
    rules on Spark and DuckDB")."""
    local = spark.sparkContext.master.startswith("local")
    written = fanout_job.is_parquet(manifest)
    for table, spec in manifest["tables"].items():
        ddl = columns(spec)
        copy = os.path.join(parquet or os.path.join(folder, PARQUET), table)
        if written:
            # Parquet parts that `fanout tables --format parquet` wrote: read by columns as any Parquet copy.
            files = fanout_job.table_files(folder, manifest, table)
            frame = spark.read.schema(ddl).parquet(*files) if files else spark.createDataFrame([], ddl)
            if not local:
                frame = frame.cache()
        elif os.path.isdir(copy):
            frame = spark.read.schema(ddl).parquet(copy)
            if not local:
                frame = frame.cache()
        else:
            files = fanout_job.table_files(folder, manifest, table)
            frame = (ndjson(spark, ddl, files) if files else spark.createDataFrame([], ddl)).cache()
        frame.createOrReplaceTempView(prefix + table)
    fanout_job.CLOCK.lap("load")


def arrow_type(spark_type):
    """A manifest column type (Spark DDL) as a pyarrow type."""
    import pyarrow as pa
    t = spark_type.strip()
    scalar = {"string": pa.string(), "bigint": pa.int64(), "double": pa.float64(), "boolean": pa.bool_()}
    if t in scalar:
        return scalar[t]
    if t.startswith("array<") and t.endswith(">"):
        return pa.list_(arrow_type(t[len("array<"):-1]))
    if t.startswith("struct<") and t.endswith(">"):
        return pa.struct([pa.field(name, arrow_type(kind)) for name, kind in fanout_job.struct_fields(t[len("struct<"):-1])])
    raise fanout_job.JobError(f"unknown column type {spark_type!r} in the manifest", fanout_job.EXIT_USAGE)


def arrow_available():
    try:
        import pyarrow.json  # noqa: F401
        import pyarrow.parquet  # noqa: F401
        return True
    except ImportError:
        return False


def arrow_parquet(folder, manifest, out):
    """Writes each NDJSON table of `folder` with rows as Parquet into `out/<table>`, parsed by pyarrow's C++ JSON
    reader (typed by the manifest; a row that does not fit is an error) a few MB at a time, so that a local job's
    Spark reads columns instead of parsing JSON: Spark's JSON reader and the cache of what it read were most of
    a run (docs/performance.md "The rules on Spark and DuckDB"). Run beside the JVM's start."""
    import pyarrow as pa
    import pyarrow.json as pj
    import pyarrow.parquet as pq
    for table, spec in manifest["tables"].items():
        files = fanout_job.table_files(folder, manifest, table)
        if not files or spec.get("rows", 1) == 0:
            continue
        schema = pa.schema([pa.field(c["name"], arrow_type(c["type"])) for c in spec["columns"]])
        options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
        os.makedirs(os.path.join(out, table))
        for i, name in enumerate(files):
            target = os.path.join(out, table, f"part-{i:05d}.parquet")
            try:
                with pa.input_stream(name, compression="detect") as source, \
                        pq.ParquetWriter(target, schema, compression="none") as writer:
                    for batch in pj.open_json(source, read_options=pj.ReadOptions(block_size=4 << 20), parse_options=options):
                        writer.write_batch(batch)
            except pa.ArrowInvalid as e:
                raise fanout_job.JobError(f"{folder}: rows that do not fit the manifest: {name}: {e}", fanout_job.EXIT_USAGE)


def to_parquet(spark, folder, manifest):
    """Writes each NDJSON table of `folder` as Parquet into `folder/parquet/<table>`, by the executors, so that
    every later run reads columns instead of parsing JSON. A table without rows is left out (`load` makes it an
    empty view): a Spark job per table costs seconds on a cluster, and a layout leaves half its tables empty."""
    for table, spec in manifest["tables"].items():
        files = fanout_job.table_files(folder, manifest, table)
        if files and spec.get("rows", 1) > 0:
            ndjson(spark, columns(spec), files).write.mode("overwrite").parquet(os.path.join(folder, PARQUET, table))
    fanout_job.CLOCK.lap("parquet")


def write_tables(spark, export, folder, parts, fanout, ship, schema=None):
    """`fanout tables EXPORT --part K/N --out folder` for K = 1…N as Spark tasks, one a part, on the executors
    (each reads its byte range of the export, which they must all see, as the folder: a shared file system), then
    `--merge`. With `ship`, the binary goes to the executors with the job (SparkContext.addFile); else each finds
    `fanout` on its PATH."""
    context = spark.sparkContext
    fanout = shutil.which(fanout) or fanout
    name = os.path.basename(fanout)
    if ship:
        context.addFile(os.path.abspath(fanout))
    export, folder = os.path.abspath(export), os.path.abspath(folder)

    def run_part(index):
        import stat
        import subprocess
        binary = name
        if ship:
            from pyspark import SparkFiles
            binary = SparkFiles.get(name)
            os.chmod(binary, os.stat(binary).st_mode | stat.S_IXUSR)
        layout = ["--schema", schema] if schema else []
        result = subprocess.run([binary, "tables", export, "--part", f"{index + 1}/{parts}", "--out", folder] + layout,
                                capture_output=True, text=True)
        return index, result.returncode, result.stderr.strip()

    failed = [r for r in context.parallelize(range(parts), parts).map(run_part).collect() if r[1] != 0]
    if failed:
        index, code, message = failed[0]
        raise fanout_job.JobError(f"fanout tables --part {index + 1}/{parts} failed (exit {code}): {message}",
                                  fanout_job.EXIT_USAGE if code == 2 else fanout_job.EXIT_ENGINE)
    fanout_job.CLOCK.lap("parts")
    merged = subprocess_run([fanout, "tables", "--merge", "--out", folder])
    if merged.returncode != 0:
        raise fanout_job.JobError(f"fanout tables --merge failed: {merged.stderr.strip()}", fanout_job.EXIT_ENGINE)


def subprocess_run(command):
    import subprocess
    try:
        return subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        raise fanout_job.JobError(f"cannot run {command[0]}: {e.strerror}; give --fanout PATH or set FANOUT", fanout_job.EXIT_SQL)


def cause(error):
    """The Java cause chain's messages: the first line of a Py4J error names only the call."""
    messages, java = [], getattr(error, "java_exception", None)
    while java is not None:
        messages.append(java.toString())
        java = java.getCause()
    return messages[-1] if messages else str(error).strip().splitlines()[0]


def findings(spark, queries, folder):
    """Every rule's findings, from one Spark job over the queries' union (they all return the finding columns;
    Spark plans and schedules each job anew, which on a small machine costs more than the rules' work). The
    executors write them, in the report's order (catalog order, then first path, then message; UTF-8 byte order
    is the code point order Python sorts by), as NDJSON into `folder`; the driver holds only their numbers per
    severity, observed as the findings are written (`Observation`), and reads the part back one line at a time to
    write the report.

    One pass over the rules and nothing kept: the findings are sorted in one partition (an external sort, spilled
    to disk past memory) rather than range-partitioned, whose sampling computed the union a second time unless it
    was persisted first, and persisting ten million findings exhausted a driver of 1 GB (`GC overhead limit
    exceeded` while caching them). The driver writes report.json from every finding in order anyway, so one
    sorting task does not limit the job."""
    import glob
    from pyspark.sql import Observation
    from pyspark.sql import functions as F
    if not queries:
        return fanout_job.OrderedFindings({}, lambda: iter(()))
    union = "\nUNION ALL\n".join(f"SELECT * FROM (\n{q['sql']}\n)" for q in queries)
    order = "CASE rule " + " ".join(f"WHEN '{q['rule']}' THEN {i}" for i, q in enumerate(queries)) + " END"
    levels = ("error", "warning", "info")
    observed = Observation("severities")
    # Observed after the shuffle, in the writing task: a result task's metrics count once even when a task is
    # retried (a lost executor), where a shuffle's map tasks may run again and count twice.
    (spark.sql(union).repartition(1)
     .sortWithinPartitions(spark_expr(order), spark_expr("coalesce(element_at(paths, 1), '')"), "message")
     .observe(observed, *[F.sum(F.when(F.col("severity") == level, 1).otherwise(0)).alias(level) for level in levels])
     .write.option("ignoreNullFields", "false").json(folder))
    severities = {level: n for level, n in observed.get.items() if n}
    parts = sorted(glob.glob(os.path.join(folder, "part-*")))
    fanout_job.CLOCK.lap("rules")

    def stream():
        for part in parts:
            with open(part, encoding="utf-8") as f:
                for line in f:
                    yield fanout_job.finding(json.loads(line))
        # Read into the report: the parts are not part of the output.
        shutil.rmtree(folder, ignore_errors=True)
    return fanout_job.OrderedFindings(severities, stream)


def spark_expr(text):
    from pyspark.sql.functions import expr
    return expr(text)


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


def materialized(spark, name, query):
    """The view `name` of `query`, computed once now and kept (cached, spilled to disk past memory), so that the
    rules' queries read it instead of each computing it again. Where `session` turned adaptive execution off (local
    mode, the user's configuration silent), the view is made with it on: a few large stages, where its statistics
    of each stage's output pay, as when the suspect timelines are none and `timeline_gaps` needs no scan of the
    timeline (a seventh of the time on the 1.1 GB export), while the rules' union of many small stages took twice as long
    with it (docs/performance.md "The rules on Spark and DuckDB")."""
    adaptive = (spark.sparkContext.master.startswith("local")
                and spark.conf.get("spark.sql.adaptive.enabled") == "false"
                and not spark.sparkContext.getConf().contains("spark.sql.adaptive.enabled"))
    if adaptive:
        spark.conf.set("spark.sql.adaptive.enabled", "true")
    try:
        frame = spark.sql(query).cache()
        rows = frame.count()
    finally:
        if adaptive:
            spark.conf.set("spark.sql.adaptive.enabled", "false")
    if rows == 0:
        # Empty, as the suspects of a consistent export are: made a view the optimizer knows is empty (`LIMIT 0`
        # becomes an empty local relation), so that it drops the joins and scans that read it, where a cached
        # empty view is found empty only as it is read, after the tables it is joined with (docs/performance.md
        # "The rules on Spark and DuckDB").
        frame.unpersist()
        frame = spark.sql(query).limit(0)
    frame.createOrReplaceTempView(name)


def collect(spark, query):
    return [row.asDict(recursive=True) for row in spark.sql(query).collect()]


def engine_run(spark, folder, parquet=None):
    """The rules on the tables of `folder` (with `parquet`, a folder of their Parquet copies that `arrow_parquet`
    wrote into the output folder being written, deleted once the rules have run)."""
    def run(manifest, sql, staged):
        def work():
            load(spark, folder, manifest, parquet=parquet)
            fanout_job.shared_views(sql, lambda name, query: materialized(spark, name, query))
            # The part files go in the output folder being written (where the cluster's executors can write when
            # it is on a shared file system), and are deleted once the report holds their findings.
            ordered = findings(spark, sql["queries"], staged.path(".findings"))
            derived = {q["name"]: collect(spark, q["sql"]) for q in sql.get("derived", [])}
            if parquet:
                shutil.rmtree(parquet, ignore_errors=True)
            fanout_job.CLOCK.lap("derived")
            return ordered, derived
        return engine_errors(folder, work)
    return run


def beside(work):
    """`work()` on a thread of its own (pyarrow leaves Python's lock while it parses and writes), and a function
    that waits for it and raises what it raised."""
    import threading
    outcome = {}

    def target():
        try:
            work()
        except BaseException as e:  # raised again in the caller's thread
            outcome["error"] = e
    thread = threading.Thread(target=target, daemon=True)
    thread.start()

    def wait():
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
    return wait


def diff_run(spark, folders):
    """--diff: both folders' tables, the findings views, the queries. Each findings view is computed once and kept
    on the executors (localCheckpoint, which also cuts its lineage): merely cached, it was planned again inside
    the queries that read it, every rule's query with it, which tripled the run and made Spark's generated code
    fail to compile."""
    def run(manifests, sql):
        view = lambda name, query: spark.sql(query).localCheckpoint().createOrReplaceTempView(name)
        return engine_errors(" and ".join(folders), lambda: fanout_job.diff_rows(
            sql, folders, manifests, lambda f, m, p: load(spark, f, m, p), view, lambda query: collect(spark, query)))
    return run


def stopped(spark, archive):
    """Stops `spark`; with a class-data archive being written (`session`), waits for the JVM to write it."""
    spark.stop()
    classes = archive.get("archive")
    if classes and classes.writing:
        from pyspark import SparkContext
        gateway = SparkContext._gateway
        SparkContext._gateway, SparkContext._jvm = None, None
        classes.finish(getattr(gateway, "proc", None))


def main(argv=None):
    args = fanout_job.arguments(__doc__.splitlines()[0], "spark").parse_args(argv)
    args.dialect = "spark"
    try:
        import pyspark  # noqa: F401
    except ImportError:
        print("Error: the pyspark module is missing; pip install pyspark", file=sys.stderr)
        return fanout_job.EXIT_ENGINE
    holder, archive = {}, {}

    def started(input_bytes):
        if "spark" not in holder:
            try:
                holder["spark"] = session(args.master, input_bytes, archive)
            except Exception as e:  # no Java, a master that cannot be reached
                where = args.master or "spark-submit's master"
                raise fanout_job.JobError(f"cannot start Spark ({where}): {cause(e)}", fanout_job.EXIT_ENGINE)
        return holder["spark"]

    def lazily(manifest, sql, staged):
        # The session starts only once the input and the SQL are known to be good (it takes seconds). A local
        # session that Python starts reads the tables as Parquet that pyarrow writes meanwhile (`arrow_parquet`),
        # unless they have a Parquet copy already; under spark-submit or on a cluster, Spark reads the NDJSON.
        parquet, converted = None, lambda: None
        submitted = "PYSPARK_GATEWAY_PORT" in os.environ
        local = args.master.startswith("local") if args.master else not submitted
        if local and not fanout_job.is_parquet(manifest) and not os.path.isdir(os.path.join(args.tables, PARQUET)) \
                and arrow_available():
            parquet = staged.path(".parquet")
            converted = beside(lambda: arrow_parquet(args.tables, manifest, parquet))
        spark = started(input_size([args.tables]))
        converted()
        if parquet:
            fanout_job.CLOCK.lap("parquet")
        return engine_run(spark, args.tables, parquet)(manifest, sql, staged)

    def lazily_diff(manifests, sql):
        return diff_run(started(input_size([args.tables, args.diff])), (args.tables, args.diff))(manifests, sql)

    try:
        if args.diff:
            if args.export:
                raise fanout_job.JobError("--export writes one tables folder; --diff compares two that `fanout tables` wrote",
                                          fanout_job.EXIT_USAGE)
            return fanout_job.run_diff(args, lazily_diff)
        if args.export:
            # Export → tables (the parts read on the executors) → Parquet, then the rules as for any tables folder.
            if not os.path.isfile(args.export):
                raise fanout_job.JobError(f"{args.export}: no such file; --export takes the export's JSON file", fanout_job.EXIT_USAGE)
            # Its tables are about 2.7 times the export (docs/tables.md "Sizing").
            spark = started(3 * os.path.getsize(args.export))
            from py4j.protocol import Py4JJavaError
            try:
                parts = args.parts or spark.sparkContext.defaultParallelism
                schema = os.path.abspath(args.schema) if args.schema and os.path.exists(args.schema) else args.schema
                write_tables(spark, args.export, args.tables, parts, args.fanout, not args.fanout_on_path, schema)
                to_parquet(spark, args.tables, fanout_job.read_manifest(args.tables))
            except Py4JJavaError as e:
                raise fanout_job.JobError(f"Spark failed: {cause(e)}", fanout_job.EXIT_ENGINE)
        return fanout_job.run(args, lazily)
    except fanout_job.JobError as e:
        print(f"Error: {e}", file=sys.stderr)
        return e.code
    finally:
        if "spark" in holder:
            stopped(holder["spark"], archive)


if __name__ == "__main__":
    sys.exit(main())
