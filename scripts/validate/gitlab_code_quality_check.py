#!/usr/bin/env python3
"""Validate GitLab Code Quality reports against Tests/Schemas/gitlab-code-quality.json (JSON Schema 2020-12, written
from GitLab's documentation of the format), and against what the schema cannot state: GitLab keeps one issue per
fingerprint, so every fingerprint of a report is unique.

usage: gitlab_code_quality_check.py SCHEMA.json FILE.json [FILE.json ...]   exit 0 valid, 1 invalid, 2 usage
"""
import json, sys
import jsonschema


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)  # Draft202012Validator, from "$schema"
    cls.check_schema(schema)
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
        seen = {}
        for i, issue in enumerate(doc if isinstance(doc, list) else []):
            fingerprint = issue.get("fingerprint") if isinstance(issue, dict) else None
            if fingerprint in seen:
                problems.append(f"{i}/fingerprint: {fingerprint} repeats issue {seen[fingerprint]}'s")
            seen.setdefault(fingerprint, i)
        for problem in problems[:50]:
            print(f"{path}: {problem}")
        if len(problems) > 50:
            print(f"{path}: ... {len(problems) - 50} more")
        count = len(doc) if isinstance(doc, list) else 0
        print(f"{path}: {'OK' if not problems else f'{len(problems)} problem(s)'} ({count} issues, {cls.__name__})")
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
