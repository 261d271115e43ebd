#!/usr/bin/env python3
"""A drifted export for the Spark job's findings benchmark (bench/spark): BASE (a small `fanout generate` export)
with COUNT likes added by users who do not exist, spread over its posts, each a `like-unknown-user` finding of
`fanout check` and of the job. Streams the likes out, so that COUNT may be tens of millions.

    python3 bench/ghost_likes.py BASE COUNT OUT
"""
import json
import sys


def main():
    base, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    export = json.load(open(base, encoding="utf-8"))
    likes = export.pop("postLikes", {})
    posts = sorted(likes) or sorted(p for poster in export["posts"].values() for p in poster)
    with open(out, "w", encoding="utf-8") as f:
        f.write("{")
        for name, value in export.items():
            f.write(json.dumps(name) + ":" + json.dumps(value, separators=(",", ":")) + ",")
        f.write('"postLikes":{')
        share, extra = divmod(count, len(posts))
        ghost = 0
        for i, post in enumerate(posts):
            f.write(("," if i else "") + json.dumps(post) + ":{")
            members = [json.dumps(user) + ":true" for user in likes.get(post, {})]
            n = share + (1 if i < extra else 0)
            members += [f'"ghost{g:09d}":true' for g in range(ghost, ghost + n)]
            ghost += n
            f.write(",".join(members) + "}")
        f.write("}}\n")


if __name__ == "__main__":
    main()
