#!/usr/bin/env python3
"""Check a built site's JSON Feeds as feed readers read them: each users/*/feed.json against the JSON Feed 1.1 schema
(Tests/Schemas/json-feed-1.1.json, written from the specification), then parsed by feedparser-rs (a feed reader's
parser with feedparser's API that reads JSON Feed, which feedparser 6.0 does not) beside the Atom feed.xml next to
it, which must give the same feed: the title, and per entry the id, link, title and publication time.

usage: json_feed_check.py SCHEMA.json SITE [SITE ...]   exit 0 valid, 1 invalid, 2 usage
"""
import glob, json, os, sys
import feedparser_rs as feedparser
import jsonschema


def entries(parsed, date):
    return [(e.get("id"), e.get("link"), e.get("title") or None, e.get(date) or None) for e in parsed.entries]


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    # date-time is checked only with jsonschema's format-nongpl extra (rfc3339-validator), which the Makefile installs.
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    problems, feeds = [], 0
    for site in argv[2:]:
        atoms = sorted(glob.glob(os.path.join(site, "users", "*", "feed.xml")))
        if not atoms:
            problems.append(f"{site}: no users/*/feed.xml")
        for atom in atoms:
            path = os.path.join(os.path.dirname(atom), "feed.json")
            feeds += 1
            if not os.path.exists(path):
                problems.append(f"{path}: missing beside {atom}")
                continue
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            for e in validator.iter_errors(doc):
                problems.append(f"{path}: {'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}")
            with open(path, "rb") as f:
                parsed = feedparser.parse(f.read())
            with open(atom, "rb") as f:
                atom_parsed = feedparser.parse(f.read())
            if parsed.get("version") != "json11" or parsed.bozo:
                problems.append(f"{path}: feedparser read {parsed.get('version')!r} (bozo: {parsed.get('bozo_exception')})")
            if parsed.feed.get("title") != atom_parsed.feed.get("title"):
                problems.append(f"{path}: title {parsed.feed.get('title')!r}, the Atom feed's {atom_parsed.feed.get('title')!r}")
            # Atom gives an undated post the epoch and an uncaptioned one the title "Post KEY"; JSON Feed leaves
            # the date and the title out. Atom's entry time is its updated, JSON Feed's date_published.
            ours = entries(parsed, "published_parsed")
            theirs = [(i, l, t if t and not t.startswith("Post ") else None, d if d and d.tm_year > 1970 else None)
                      for i, l, t, d in entries(atom_parsed, "updated_parsed")]
            if ours != theirs:
                diff = next((a, b) for a, b in zip(ours + [None] * len(theirs), theirs + [None] * len(ours)) if a != b)
                problems.append(f"{path}: {len(ours)} entries, the Atom feed {len(theirs)}; first difference {diff}")
    for problem in problems[:50]:
        print(problem)
    print(f"{feeds} JSON Feeds: {'OK' if not problems else f'{len(problems)} problem(s)'} ({cls.__name__}, feedparser-rs)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
