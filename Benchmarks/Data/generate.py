#!/usr/bin/env python3
"""Writes the generated benchmark inputs of Benchmarks/Data (see README.md).

Each file has one shape twitter.json and canada.json do not: long strings
with heavy Unicode and escapes, the same written ASCII-only (every non-ASCII
character a \\u escape, emoji as surrogate pairs: what Python's, PHP's and
many Java encoders write by default), many small records, wide objects, maps
of records keyed by id, the same pretty-printed (two-space indentation, as
JavaScript's JSON.stringify(value, null, 2) and most config files and API
dumps write it), deep nesting, integer-heavy and float-heavy arrays, and an
API feed whose records vary by kind (optional members absent or null, dates,
URLs, snake_case keys, enumerations).
Seeded, so the files are the same on every run (Python 3.11, json module,
compact separators and ensure_ascii off but where STYLES says). Run from the
package root:

    python3 Benchmarks/Data/generate.py
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon "
         "phi chi psi omega server request response latency cache shard replica queue worker batch stream").split()
UNICODE = ["日本語のテキスト", "中文字符", "한국어 문장", "Ελληνικά", "Русский текст", "עברית", "العربية", "हिन्दी",
           "emoji 😀🚀🎉👩‍💻", "combining é ñ ü", "math ∑∫√∞≈", "arrows ←↑→↓", "ß ø å æ œ"]


# How the files that are not compact UTF-8 are written.
STYLES = {
    "escaped.json": {"ensure_ascii": True, "separators": (",", ":")},
    "indented.json": {"ensure_ascii": False, "indent": 2, "separators": (",", ": ")},
}


def write(name, value):
    path = os.path.join(HERE, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, **STYLES.get(name, {"ensure_ascii": False, "separators": (",", ":")}))
    print(name, os.path.getsize(path), "bytes")


def sentence(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words))


def strings(rng):
    """Articles with long bodies: Unicode of many scripts, quotes, escapes, newlines."""
    articles = []
    for index in range(1500):
        parts = []
        for _ in range(rng.randint(4, 12)):
            parts.append(sentence(rng, rng.randint(5, 25)))
            parts.append(rng.choice(UNICODE))
            if rng.random() < 0.3:
                parts.append('"quoted" \\ back\\slash\ttab')
        articles.append({
            "id": index,
            "title": rng.choice(UNICODE) + " " + sentence(rng, 4),
            "body": "\n".join(parts),
            "language": rng.choice(["ja", "zh", "ko", "el", "ru", "he", "ar", "hi", "en"]),
            "tags": [rng.choice(UNICODE)[:6] for _ in range(rng.randint(0, 4))],
        })
    return {"articles": articles}


def records(rng):
    """Many small flat records, as an event log or a metrics export."""
    return [{
        "id": index,
        "ok": rng.random() < 0.9,
        "value": round(rng.uniform(-1000, 1000), rng.randint(0, 6)),
        "kind": rng.choice(["get", "put", "post", "delete"]),
        "user": rng.randint(1, 5000) if rng.random() < 0.8 else None,
    } for index in range(40000)]


def wide(rng):
    """Objects with 300 keys each (a wide table row, a feature vector)."""
    keys = ["field_%03d_%s" % (index, rng.choice(WORDS)) for index in range(300)]
    rows = []
    for _ in range(150):
        row = {}
        for position, key in enumerate(keys):
            kind = position % 4
            row[key] = (rng.randint(-10**6, 10**6) if kind == 0 else round(rng.random(), 5) if kind == 1
                        else rng.random() < 0.5 if kind == 2 else rng.choice(WORDS))
        rows.append(row)
    return rows


def maps(rng):
    """Records in an object keyed by id, the shape of many configuration and cache dumps."""
    users = {}
    for index in range(15000):
        users["user-%05d" % index] = {
            "name": sentence(rng, 2).title(),
            "age": rng.randint(18, 90),
            "email": "%s.%d@example.com" % (rng.choice(WORDS), index),
            "score": round(rng.uniform(0, 100), 2),
            "roles": rng.sample(["admin", "editor", "viewer", "owner", "billing"], rng.randint(1, 3)),
        }
    return {"version": 3, "users": users}


def deep(rng):
    """Many subtrees nested 60 to 120 levels deep, objects and arrays alternating."""
    def nest(depth):
        node = {"leaf": rng.randint(0, 1000), "name": rng.choice(WORDS)}
        for level in range(depth):
            node = {"level": level, "child": node} if level % 2 else [node, level]
        return node
    return [nest(rng.randint(60, 120)) for _ in range(800)]


def integers(rng):
    """Integers of every magnitude, 8 to 64 bits, signed."""
    values = []
    for _ in range(150000):
        bits = rng.choice([7, 15, 31, 53, 63])
        values.append(rng.randint(-(2 ** bits), 2 ** bits - 1))
    return {"values": values}


def floats(rng):
    """Doubles written with 1 to 17 significant digits, some with exponents."""
    values = []
    for _ in range(120000):
        value = rng.uniform(-1, 1) * 10 ** rng.randint(-12, 12)
        digits = rng.randint(1, 17)
        values.append(float("%.*g" % (digits, value)))
    return {"values": values}


def activity(rng):
    """A public API's event feed: records whose payload depends on their kind,
    members absent or null, ISO 8601 dates, URLs, snake_case keys."""
    def when():
        return "2026-%02d-%02dT%02d:%02d:%02dZ" % (rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                                                  rng.randint(0, 59), rng.randint(0, 59))

    def sha():
        return "%040x" % rng.getrandbits(160)

    def account(with_display):
        login = rng.choice(WORDS) + "-" + rng.choice(WORDS) + str(rng.randint(1, 999))
        value = {"id": rng.randint(1, 10 ** 8), "login": login}
        if with_display:
            value["display_login"] = login
        value.update({"gravatar_id": "", "url": "https://api.example.com/users/" + login,
                      "avatar_url": "https://avatars.example.com/u/%d?" % rng.randint(1, 10 ** 8)})
        return value

    def payload(kind):
        if kind == "PushEvent":
            commits = [{"sha": sha(), "author": {"email": "%s@example.com" % rng.choice(WORDS),
                                                 "name": sentence(rng, 2).title()},
                        "message": sentence(rng, rng.randint(3, 12)), "distinct": rng.random() < 0.9,
                        "url": "https://api.example.com/repos/x/y/commits/" + sha()}
                       for _ in range(rng.randint(1, 4))]
            return {"push_id": rng.randint(10 ** 9, 10 ** 10), "size": len(commits), "distinct_size": len(commits),
                    "ref": "refs/heads/" + rng.choice(WORDS), "head": sha(), "before": sha(), "commits": commits}
        if kind == "WatchEvent":
            return {"action": "started"}
        if kind == "IssuesEvent":
            closed = rng.random() < 0.4
            return {"action": "closed" if closed else "opened", "issue": {
                "url": "https://api.example.com/repos/x/y/issues/%d" % rng.randint(1, 9999),
                "id": rng.randint(10 ** 8, 10 ** 9), "number": rng.randint(1, 9999),
                "title": sentence(rng, rng.randint(3, 9)), "user": account(False),
                "labels": [{"id": rng.randint(1, 10 ** 6), "name": rng.choice(WORDS),
                            "color": "%06x" % rng.getrandbits(24), "default": rng.random() < 0.2}
                           for _ in range(rng.randint(0, 3))],
                "state": "closed" if closed else "open", "locked": False, "comments": rng.randint(0, 40),
                "created_at": when(), "updated_at": when(), "closed_at": when() if closed else None,
                "body": sentence(rng, rng.randint(10, 60)) if rng.random() < 0.8 else None}}
        if kind == "ForkEvent":
            name = rng.choice(WORDS)
            return {"forkee": {"id": rng.randint(10 ** 7, 10 ** 8), "name": name, "full_name": "someone/" + name,
                               "private": False, "html_url": "https://example.com/someone/" + name,
                               "description": sentence(rng, 6) if rng.random() < 0.7 else None, "fork": True,
                               "created_at": when(), "stargazers_count": rng.randint(0, 5000),
                               "language": rng.choice(["Swift", "Rust", "C", None])}}
        return {"ref": rng.choice(WORDS), "ref_type": rng.choice(["branch", "tag"]), "master_branch": "main",
                "description": sentence(rng, 5) if rng.random() < 0.5 else None, "pusher_type": "user"}

    events = []
    for _ in range(2500):
        kind = rng.choice(["PushEvent", "PushEvent", "WatchEvent", "IssuesEvent", "ForkEvent", "CreateEvent"])
        event = {"id": str(rng.randint(10 ** 10, 10 ** 11)), "type": kind, "actor": account(True),
                 "repo": {"id": rng.randint(1, 10 ** 8), "name": "%s/%s" % (rng.choice(WORDS), rng.choice(WORDS)),
                          "url": "https://api.example.com/repos/" + rng.choice(WORDS)},
                 "payload": payload(kind), "public": True, "created_at": when()}
        if rng.random() < 0.4:
            event["org"] = account(False)
        events.append(event)
    return events


def main():
    for name, build, seed in [("strings.json", strings, 1), ("records.json", records, 2), ("wide.json", wide, 3),
                              ("maps.json", maps, 4), ("deep.json", deep, 5), ("integers.json", integers, 6),
                              ("floats.json", floats, 7), ("escaped.json", strings, 8),
                              ("indented.json", maps, 9), ("activity.json", activity, 10)]:
        write(name, build(random.Random(seed)))


if __name__ == "__main__":
    main()
