#!/usr/bin/env python3
"""Validate SARIF files against the SARIF 2.1.0 JSON Schema (draft-04), offline, and against the limits GitHub
code scanning adds to it.

usage: sarif_check.py SCHEMA.json FILE.sarif [FILE.sarif ...]   exit 0 valid, 1 invalid, 2 usage/unreadable

GitHub's limits (its "SARIF support for code scanning" documentation) that the schema does not state:
- every result has a physical location: locations[0].physicalLocation.artifactLocation.uri and region.startLine
  (GitHub rejects the upload otherwise: "locationFromSarifResult: expected artifact location");
- at most 25,000 results per run;
- rule descriptions (shortDescription, fullDescription) at most 1,024 characters.
Fanout's own promise on top (docs/reports.md): every result has partialFingerprints.primaryLocationLineHash.
"""
import json, sys
import jsonschema

MAX_RESULTS = 25000
MAX_DESCRIPTION = 1024


def github_problems(doc):
    for r, run in enumerate(doc.get("runs", [])):
        results = run.get("results", [])
        if len(results) > MAX_RESULTS:
            yield f"runs/{r}/results: {len(results)} results, GitHub accepts at most {MAX_RESULTS}"
        for rule in run.get("tool", {}).get("driver", {}).get("rules", []):
            for key in ("shortDescription", "fullDescription"):
                text = rule.get(key, {}).get("text", "")
                if len(text) > MAX_DESCRIPTION:
                    yield f"rule {rule.get('id')}: {key} is {len(text)} characters, GitHub accepts at most {MAX_DESCRIPTION}"
        for i, result in enumerate(results):
            where = f"runs/{r}/results/{i}"
            physical = (result.get("locations") or [{}])[0].get("physicalLocation", {})
            if not physical.get("artifactLocation", {}).get("uri"):
                yield f"{where}: no physicalLocation.artifactLocation.uri (GitHub: expected artifact location)"
            if not isinstance(physical.get("region", {}).get("startLine"), int):
                yield f"{where}: no physicalLocation.region.startLine"
            if "primaryLocationLineHash" not in result.get("partialFingerprints", {}):
                yield f"{where}: no partialFingerprints.primaryLocationLineHash"


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)  # Draft4Validator, from "$schema"
    cls.check_schema(schema)
    # Every $ref in the SARIF schema is local ("#/definitions/..."), so nothing is fetched. The format checker
    # checks "uri" and "date-time" only with jsonschema's format-nongpl extra installed (the Makefile installs it).
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    bad = 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: unreadable: {e}")
            bad += 1
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        problems = [("/".join(str(p) for p in e.absolute_path) or "(root)") + ": " + e.message for e in errors]
        problems += list(github_problems(doc))
        for problem in problems[:50]:
            print(f"{path}: {problem}")
        if len(problems) > 50:
            print(f"{path}: ... {len(problems) - 50} more")
        print(f"{path}: {'OK' if not problems else f'{len(problems)} problem(s)'} ({cls.__name__} and GitHub's limits)")
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
