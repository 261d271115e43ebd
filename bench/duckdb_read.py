"""DuckDB reading a Fanout export the way a user would (docs/performance.md "Scale: the 11 GB export").

Usage: duckdb_read.py EXPORT QUERY   (QUERY: "read_json" or "users")
  read_json  SELECT count(*) FROM read_json('EXPORT'): the first thing one types; DuckDB reads the export as
             one record with a column per top-level key and a struct field per user and post key.
  users      the users counted from the export read as one JSON object (read_json_objects), with
             maximum_object_size raised to the export's size, which DuckDB needs for a single-object file.
Prints "ok SECONDS ROWS" or "error SECONDS FIRST-LINE-OF-THE-ERROR". memory_limit is DUCKDB_MEMORY_LIMIT
(default 12GB), so a shared machine keeps room for everyone else.
"""
import os
import sys
import time

import duckdb

path, query = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute(f"SET memory_limit='{os.environ.get('DUCKDB_MEMORY_LIMIT', '12GB')}'")
quoted = path.replace("'", "''")
if query == "read_json":
    sql = f"SELECT count(*) FROM read_json('{quoted}')"
else:
    size = os.path.getsize(path) + (1 << 20)
    sql = (f"SELECT count(*) FROM (SELECT unnest(json_keys(json->'users')) "
           f"FROM read_json_objects('{quoted}', maximum_object_size={size}))")
start = time.perf_counter()
try:
    rows = con.execute(sql).fetchone()[0]
    print(f"ok {time.perf_counter() - start:.2f} {rows}")
except Exception as error:  # DuckDB's errors are all reported the same way: first line, no traceback
    line = str(error).splitlines()[0] if str(error) else type(error).__name__
    print(f"error {time.perf_counter() - start:.2f} {line}")
