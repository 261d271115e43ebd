#!/usr/bin/env python3
"""Reads the Parquet tables of `fanout tables --format parquet` with independent readers and compares them with
the NDJSON tables of the same export (docs/tables.md "Parquet"): the manifests must list the same tables, columns
and row counts; each Parquet file's footer (pyarrow's `ParquetFile.metadata`) must give the manifest's types as
Parquet's (strings BYTE_ARRAY annotated STRING, bigint INT64, double DOUBLE, arrays of structs as LISTs) and its
row count, and its column chunks' encodings must be PLAIN or a dictionary (a dictionary page and RLE_DICTIONARY,
strings only; `path`, every value distinct, PLAIN); and every table's rows, read by pyarrow (`pyarrow.parquet.read_table`), by DuckDB (`read_parquet`)
and, with --spark, by Spark (`spark.read.parquet`, without a schema given), must be the NDJSON rows, in order
(Spark's: as a multiset, its file order being its own).

    python3 scripts/validate/parquet_tables.py NDJSON_TABLES PARQUET_TABLES [NDJSON_TABLES PARQUET_TABLES]… [--spark]
"""
import argparse
import collections
import json
import os
import sys

# The manifest's scalar types as Parquet's physical type and logical type (pyarrow's names).
PARQUET_TYPES = {"string": ("BYTE_ARRAY", "String"), "bigint": ("INT64", "None"), "double": ("DOUBLE", "None"),
                 "boolean": ("BOOLEAN", "None")}


def manifest(folder):
    with open(os.path.join(folder, "_manifest.json"), encoding="utf-8") as f:
        return json.load(f)


def ndjson_rows(folder, spec):
    rows = []
    for name in spec["files"]:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            rows += [json.loads(line) for line in f]
    return rows


def leaf_types(column_type):
    """The (physical, logical) types of a manifest column's Parquet leaves, in order."""
    if column_type in PARQUET_TYPES:
        return [PARQUET_TYPES[column_type]]
    assert column_type.startswith("array<struct<") and column_type.endswith(">>"), column_type
    return [PARQUET_TYPES[member.split(":", 1)[1]] for member in column_type[len("array<struct<"):-2].split(",")]


def key(row):
    """A row as text that is the same for 1 and 1.0 (a double column's JSON integer)."""
    def number(value):
        if isinstance(value, dict):
            return {k: number(v) for k, v in value.items()}
        if isinstance(value, list):
            return [number(v) for v in value]
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else value
    return json.dumps(number(row), sort_keys=True, ensure_ascii=False)


def encodings(f, meta, problems, counts):
    """Checks the encodings of each column chunk of one file's footer, counting the dictionary-encoded ones."""
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for c in range(group.num_columns):
            chunk = group.column(c)
            found = set(chunk.encodings)
            dictionary = chunk.has_dictionary_page
            counts["dictionary" if dictionary else "plain"] += 1
            allowed = {"PLAIN", "RLE", "RLE_DICTIONARY"} if dictionary else {"PLAIN", "RLE"}
            if "PLAIN" not in found or not found <= allowed or dictionary != ("RLE_DICTIONARY" in found):
                problems.append(f"{f}: row group {g} column {chunk.path_in_schema}: encodings {chunk.encodings}")
            if dictionary and (chunk.physical_type != "BYTE_ARRAY" or chunk.path_in_schema == "path"
                               or not 0 < chunk.dictionary_page_offset < chunk.data_page_offset):
                problems.append(f"{f}: row group {g} column {chunk.path_in_schema}: a dictionary where none is due")


def compare(ndjson, parquet, con, pq, spark, problems, counts):
    """Compares one pair of folders, appending what differs to `problems`; returns the rows compared."""
    expected, actual = manifest(ndjson), manifest(parquet)
    if actual["options"].get("format") != "parquet":
        problems.append(f"{parquet}: the manifest's options.format is {actual['options'].get('format')!r}")
    if list(expected["tables"]) != list(actual["tables"]):
        problems.append(f"{parquet}: the manifests list other tables")
    total = 0
    for table, spec in expected["tables"].items():
        other = actual["tables"].get(table)
        if other is None:
            continue
        where = f"{parquet} {table}"
        if other["columns"] != spec["columns"] or other["rows"] != spec["rows"]:
            problems.append(f"{where}: columns or rows differ from the NDJSON manifest's")
        files = [os.path.join(parquet, f) for f in other["files"]]
        if not files or not all(f.endswith(".parquet") for f in files):
            problems.append(f"{where}: files {other['files']}")
            continue
        rows = ndjson_rows(ndjson, spec)
        total += len(rows)
        leaves = [t for c in spec["columns"] for t in leaf_types(c["type"])]
        counted = 0
        for f in files:
            meta = pq.ParquetFile(f).metadata
            counted += meta.num_rows
            encodings(f, meta, problems, counts)
            schema = meta.schema
            found = [(schema.column(i).physical_type, str(schema.column(i).logical_type))
                     for i in range(meta.num_columns)]
            if found != leaves:
                problems.append(f"{f}: leaf types {found}, expected {leaves}")
            names = schema.to_arrow_schema().names
            if names != [c["name"] for c in spec["columns"]]:
                problems.append(f"{f}: columns {names}")
        if counted != len(rows):
            problems.append(f"{where}: the footers count {counted} rows, the NDJSON has {len(rows)}")
        read = [row for f in files for row in pq.read_table(f).to_pylist()]
        if read != rows:
            problems.append(f"{where}: pyarrow's rows differ from the NDJSON rows")
        listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
        relation = con.sql(f"SELECT * FROM read_parquet([{listed}])")
        names = [d[0] for d in relation.description]
        ducked = [dict(zip(names, values)) for values in relation.fetchall()]
        if ducked != rows:
            problems.append(f"{where}: DuckDB's rows differ from the NDJSON rows")
        if spark:
            sparked = [r.asDict(recursive=True) for r in spark.read.parquet(*files).collect()]
            if collections.Counter(map(key, sparked)) != collections.Counter(map(key, rows)):
                problems.append(f"{where}: Spark's rows differ from the NDJSON rows")
    return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="+", metavar="FOLDER")
    parser.add_argument("--spark", action="store_true")
    args = parser.parse_args()
    if len(args.folders) % 2:
        parser.error("give the folders in pairs: NDJSON tables, then Parquet tables of the same export")
    import duckdb
    import pyarrow.parquet as pq
    spark = None
    if args.spark:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spark"))
        import fanout_check
        spark = fanout_check.session()
    problems, total, counts = [], 0, collections.Counter()
    con = duckdb.connect()
    try:
        for ndjson, parquet in zip(args.folders[::2], args.folders[1::2]):
            total += compare(ndjson, parquet, con, pq, spark, problems, counts)
    finally:
        if spark:
            spark.stop()
    for problem in problems:
        print(problem)
    readers = "pyarrow, DuckDB" + (" and Spark" if spark else "")
    print(f"{len(args.folders) // 2} pairs, {total} rows ({counts['dictionary']} column chunks dictionary-encoded, "
          f"{counts['plain']} PLAIN): {'the same' if not problems else 'DIFFERENT'} read by {readers}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
