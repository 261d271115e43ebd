#!/usr/bin/env python3
"""Writes a Hugo site that renders the same timeline pages Fanout renders, from the same export.

Usage: hugo_site.py EXPORT.json SITE_DIR

Each user's timeline (own posts plus followed users' posts, newest first, ties by key) becomes one Hugo
content page whose front matter holds the posts; a layout renders them like Fanout's timeline template
(poster, time, image, caption through Hugo's Markdown, like count, likers summary, viewer's heart). The
derivation is done here, before Hugo runs, so Hugo's time is rendering only.
"""
import json
import os
import sys

import orjson

export_path, site = sys.argv[1], sys.argv[2]
root = orjson.loads(open(export_path, "rb").read())
users = root.get("users", {})
posts = root.get("posts", {})
likes = root.get("postLikes", {})
following = root.get("following", {})


def name(uid):
    return users.get(uid, {}).get("username", uid)


owner, post_by_key = {}, {}
for uid, by_key in posts.items():
    for key, post in by_key.items():
        owner[key] = uid
        post_by_key[key] = post
by_owner = {}
for key, uid in owner.items():
    by_owner.setdefault(uid, []).append(key)
likers = {key: sorted((u for u in likes.get(key, {}) if u in users), key=lambda u: (name(u), u)) for key in owner}

os.makedirs(os.path.join(site, "content", "u"), exist_ok=True)
os.makedirs(os.path.join(site, "layouts", "_default"), exist_ok=True)
with open(os.path.join(site, "config.json"), "w") as f:
    json.dump({"baseURL": "/", "disableKinds": ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"],
               "relativeURLs": True, "uglyURLs": False, "markup": {"goldmark": {"renderer": {"unsafe": False}}}}, f)
with open(os.path.join(site, "layouts", "_default", "single.html"), "w") as f:
    f.write("""<!DOCTYPE html>
<html lang="en" data-timeline="{{ .Params.uid }}"><head><meta charset="utf-8"><title>{{ .Title }}</title>
<link rel="stylesheet" href="../../style.css"></head><body><main>
<h1>{{ .Title }}</h1>
{{ $viewer := .Params.viewer }}
{{ range .Params.posts }}
<article class="post" data-post="{{ .key }}">
<header><a href="../../u/{{ .owner }}/">{{ .poster }}</a> <time>{{ .time }}</time></header>
{{ with .image }}<img src="{{ . }}" alt="Photo posted by {{ $.Params.poster }}" loading="lazy">{{ end }}
{{ with .caption }}<div class="caption">{{ . | markdownify }}</div>{{ end }}
<footer><span class="heart" data-liked="{{ .liked }}" aria-label="liked by {{ $viewer }}">{{ if .liked }}♥{{ else }}♡{{ end }}</span>
<a href="../../p/{{ .key }}/">{{ .likes }} likes</a> {{ with .likers }}<span class="likers">{{ . }}</span>{{ end }}</footer>
</article>
{{ end }}
</main></body></html>
""")
with open(os.path.join(site, "layouts", "_default", "list.html"), "w") as f:
    f.write("<!DOCTYPE html><html><body>{{ .Title }}</body></html>")


def summary(names, total):
    if total == 0:
        return ""
    if total == 1:
        return names[0]
    if total == 2:
        return f"{names[0]} and {names[1]}"
    if total == 3:
        return f"{names[0]}, {names[1]} and {names[2]}"
    return f"{names[0]}, {names[1]} and {total - 2} others"


pages = 0
for uid in users:
    authors = {uid} | set(following.get(uid, {}))
    keys = [k for a in authors for k in by_owner.get(a, [])]
    keys.sort(key=lambda k: k.encode())
    keys.sort(key=lambda k: -float(post_by_key[k].get("created_at", 0)))
    entries = []
    for k in keys:
        p = post_by_key[k]
        ls = likers[k]
        entries.append({"key": k, "owner": owner[k], "poster": name(owner[k]), "time": p.get("created_at"),
                        "image": p.get("image_url"), "caption": p.get("caption", ""), "likes": len(ls),
                        "likers": summary([name(u) for u in ls[:3]], len(ls)), "liked": uid in ls})
    front = {"title": f"{name(uid)}'s timeline", "uid": uid, "viewer": name(uid), "posts": entries}
    with open(os.path.join(site, "content", "u", f"{uid}.md"), "wb") as f:
        f.write(orjson.dumps(front) + b"\n")
    pages += 1
print(pages)
