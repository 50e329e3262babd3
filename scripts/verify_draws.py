#!/usr/bin/env python3
"""A second checker of the campaign's draws, written from docs/verify-a-draw-day.md alone,
with Python 3's standard library only.

    python3 scripts/verify_draws.py FILE_OR_URL [--pin CAMPAIGN.json]

FILE_OR_URL is a day's record, a bundle {"campaign": ..., "days": [...]}, or (a URL) the
campaign's list, whose days are fetched beside it. It checks everything the JavaScript checker
does except the beacon's BLS signatures, which it cannot do without a pairing library: run
`node scripts/verify-draws.mjs --signatures-only FILE` for that step. Each round's randomness
is still taken from its signature (SHA-256), so a changed signature fails the rolls here.
Exit 0: everything checks. Exit 1: the first record that does not, named. Exit 2: unreadable.
"""
import datetime
import hashlib
import hmac
import json
import sys
import urllib.request

GENESIS_PREV = "0" * 64
MAX_DRAW_DELAY_MS = 3_600_000
TWO_53 = 2**53
POOL_TYPES = {"second": ["preregistration_public", "preregistration_branch"], "third": ["registration_branch"]}


class Failed(Exception):
    def __init__(self, reason, record=None):
        super().__init__(reason)
        self.reason = reason
        self.seq = record["seq"] if record else 0
        self.id = record.get("id", "") if record else ""


def sha256_hex(data):
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def dumps(value):
    """The published text form: JSON without spaces, keys in the order given, integers as digits."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def millis(iso):
    moment = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return int(moment.timestamp() * 1000 + 0.5)


def kathmandu_date(iso):
    ms = millis(iso) + (5 * 60 + 45) * 60_000
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%d")


def round_after(chain, ms):
    return max(1, (ms - chain["genesis_time"] * 1000) // (chain["period"] * 1000) + 2)


def round_time_ms(chain, rnd):
    return (chain["genesis_time"] + (rnd - 1) * chain["period"]) * 1000


def roll_bits(key_hex, entry_hash, k):
    digest = hmac.new(bytes.fromhex(key_hex), f"{entry_hash}|{k}".encode("utf-8"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 11


def pick_weighted(rows, value):
    total = sum(r["weight"] for r in rows)
    if not rows or not total > 0:
        return None
    target = value * total
    cumulative = 0
    for row in rows:
        cumulative += row["weight"]
        if target < cumulative:
            return row
    return rows[-1]


def order_pools(pools):
    left = [p for p in pools if p["paid"] < p["count"]]
    return sorted(left, key=lambda p: (-p["amount"], p["id"]))


def prize_for(pools, base_table, roll):
    used = 0
    for pool in order_pools(pools):
        value = roll(used)
        used += 1
        if value < pool["probability"] / 100:
            return {"amount": pool["amount"], "outcome": "pool", "pool": pool["id"]}, used
    if base_table:
        row = pick_weighted(base_table, roll(used))
        used += 1
        if row:
            return {"amount": row["amount"], "outcome": "fallback", "pool": None}, used
    return {"amount": 0, "outcome": "none", "pool": None}, used


def terms_text(t):
    chain = t["chain"]
    return dumps(
        {
            "date": t["date"],
            "chain": None
            if chain is None
            else {k: chain[k] for k in ("name", "chain_hash", "public_key", "genesis_time", "period")},
            "house_commitment": t["house_commitment"],
            "pools": [{k: p[k] for k in ("id", "type", "branch", "amount", "count", "probability")} for p in t["pools"]],
            "base_tables": {
                kind: [{"amount": r["amount"], "weight": r["weight"]} for r in t["base_tables"][kind]]
                for kind in ("second", "third")
            },
        }
    )


ENTRY_FIELDS = ("seq", "kind", "time", "date", "id", "round", "pool_type", "branch", "terms", "beacon_round", "prev")
DRAW_FIELDS = ("seq", "kind", "time", "date", "entry", "entry_hash", "id", "source", "beacon_round", "signature", "reason")


def record_text(r):
    if r.get("kind") == "entry":
        return dumps({k: r[k] for k in ENTRY_FIELDS})
    if r.get("kind") == "draw":
        body = {k: r[k] for k in DRAW_FIELDS}
        body["pools"] = [{k: p[k] for k in ("id", "amount", "count", "paid", "probability")} for p in r["pools"]]
        body["base_table"] = [{"amount": b["amount"], "weight": b["weight"]} for b in r["base_table"]]
        body["rolls"] = list(r["rolls"])
        body["prize"] = {k: r["prize"][k] for k in ("amount", "outcome", "pool")}
        body["prev"] = r["prev"]
        return dumps(body)
    return None


def pools_before(terms, pool_type, branch, paid):
    return order_pools(
        [
            {"id": p["id"], "amount": p["amount"], "count": p["count"], "paid": paid.get(p["id"], 0), "probability": p["probability"]}
            for p in terms["pools"]
            if p["type"] == pool_type and p["branch"] == branch
        ]
    )


def verify_day(day, pinned=None):
    """Checks one day's record; returns a summary or raises Failed naming the first bad record."""
    if not isinstance(day, dict) or not isinstance(day.get("records"), list) or not isinstance(day.get("terms"), str):
        raise Failed("This is not a day's draw record.")
    if sha256_hex(day["terms"]) != day.get("terms_hash"):
        raise Failed("The day's terms do not match their hash.")
    if pinned and pinned.get("terms_hash") != day["terms_hash"]:
        raise Failed("The day's terms are not the ones in the saved campaign file: the day was remade.")
    terms = json.loads(day["terms"])
    if terms["date"] != day["date"]:
        raise Failed("The terms are another day's.")
    if terms_text(terms) != day["terms"]:
        raise Failed("The terms are not written in the published form.")
    if day.get("house_seed") and sha256_hex(bytes.fromhex(day["house_seed"])) != terms["house_commitment"]:
        raise Failed("The house seed does not match the commitment published before the day.")
    if not day.get("head"):
        raise Failed("The day's chain head is missing.")
    chain = terms["chain"]
    entries, own_seqs, paid, hashes = {}, [], {}, set()
    prev, prev_seq, prev_time = day["previous_head"], None, None
    waiting, last_drawn, last_own = 0, 0, None
    counts = {"entries": 0, "draws": 0, "house": 0}
    for item in day["records"]:
        r = json.loads(item["text"])
        if record_text(r) != item["text"]:
            raise Failed("This record is not written in the published form.", r)
        if sha256_hex(item["text"]) != item["hash"]:
            raise Failed("This record was changed after it was made.", r)
        if prev_seq is not None and r["seq"] != prev_seq + 1:
            raise Failed(f"Record {prev_seq + 1} is missing.", r)
        if r["prev"] != prev:
            raise Failed("The chain is broken: this record does not follow the one before it.", r)
        if prev_time is not None and r["time"] < prev_time:
            raise Failed("This record's time is earlier than the one before it.", r)
        prev, prev_seq, prev_time = item["hash"], r["seq"], r["time"]
        hashes.add(item["hash"])
        if r["kind"] == "entry":
            if r["date"] != kathmandu_date(r["time"]):
                raise Failed("This entry's time is outside its day.", r)
            entries[r["seq"]] = {"record": r, "hash": item["hash"], "drawn": False}
            if r["date"] != day["date"]:
                continue
            counts["entries"] += 1
            own_seqs.append(r["seq"])
            last_own = item["hash"]
            if r["terms"] != day["terms_hash"]:
                raise Failed("This entry names other terms than the day's.", r)
            if r["pool_type"] not in POOL_TYPES.get(r["round"], []):
                raise Failed("This entry's pool type does not fit its round.", r)
            if (r["branch"] is None) != (r["pool_type"] == "preregistration_public"):
                raise Failed("This entry's branch does not fit its pool type.", r)
            expected = round_after(chain, millis(r["time"])) if chain else None
            if r["beacon_round"] != expected:
                raise Failed(f"This entry must be decided by beacon round {expected}, the first after it was fixed.", r)
            continue
        if r["date"] != day["date"]:
            continue
        last_own = item["hash"]
        entry = entries.get(r["entry"])
        if not entry or entry["hash"] != r["entry_hash"] or entry["record"]["date"] != day["date"]:
            raise Failed("This draw does not name an entry of the day fixed before it.", r)
        if entry["drawn"]:
            raise Failed("This entry was drawn twice.", r)
        if r["entry"] < last_drawn:
            raise Failed("Entries are drawn out of the order they were fixed in.", r)
        while waiting < len(own_seqs) and entries[own_seqs[waiting]]["drawn"]:
            waiting += 1
        if waiting < len(own_seqs) and own_seqs[waiting] < r["entry"]:
            raise Failed(f"The entry fixed at record {own_seqs[waiting]} was never drawn, yet later entries were.", r)
        e = entry["record"]
        if r["id"] != e["id"] or r["beacon_round"] != e["beacon_round"]:
            raise Failed("This draw does not match its entry.", r)
        if r["time"] < e["time"] or millis(r["time"]) - millis(e["time"]) > MAX_DRAW_DELAY_MS:
            raise Failed("This draw's time does not follow its entry's.", r)
        entry["drawn"] = True
        last_drawn = r["entry"]
        counts["draws"] += 1
        if r["source"] == "beacon":
            if not chain or not isinstance(r["signature"], str) or r["reason"] is not None:
                raise Failed("This draw names a beacon round the day has no beacon for.", r)
            if millis(r["time"]) < round_time_ms(chain, r["beacon_round"]):
                raise Failed("This draw is dated before its beacon round was published.", r)
            key = sha256_hex(bytes.fromhex(r["signature"]))
        elif r["source"] == "house":
            if r["signature"] is not None or not r["reason"]:
                raise Failed("A draw with the house seed must say why.", r)
            counts["house"] += 1
            key = day.get("house_seed")
        else:
            raise Failed("This draw's randomness has no known source.", r)
        pools = pools_before(terms, e["pool_type"], e["branch"], paid)
        if r["pools"] != pools:
            raise Failed("The pools shown are not the day's committed pools less what the draws before paid.", r)
        base_table = terms["base_tables"][e["round"]]
        if r["base_table"] != base_table:
            raise Failed("The base table is not the day's committed one.", r)
        if key:
            rolled = []

            def roll(k):
                rolled.append(roll_bits(key, r["entry_hash"], k))
                return rolled[k] / TWO_53

            prize, _ = prize_for(pools, base_table, roll)
            if r["rolls"] != rolled:
                raise Failed("The rolls do not come from the round's randomness and the entry.", r)
        else:
            prize, used = prize_for(pools, base_table, lambda k: (r["rolls"][k] if k < len(r["rolls"]) else 0) / TWO_53)
            if used != len(r["rolls"]):
                raise Failed("The prize does not follow from the pools and the rolls.", r)
        if r["prize"] != prize:
            raise Failed("The prize does not follow from the pools and the rolls.", r)
        if r["prize"]["pool"] is not None:
            paid[r["prize"]["pool"]] = paid.get(r["prize"]["pool"], 0) + 1
    if day["records"] and last_own != prev:
        raise Failed("The record does not end with one of the day's own records.")
    head = prev if day["records"] else day["previous_head"]
    if day["head"] != head:
        raise Failed("The published chain head is not the day's last record.")
    if pinned and pinned.get("head"):
        if pinned["head"] not in hashes and pinned["head"] != day["previous_head"]:
            raise Failed("The saved campaign file's head for this day is not in the record: draws were cut.")
        if pinned.get("closed") and pinned["head"] != day["head"]:
            raise Failed("The day was closed with another head than the record's: draws were cut or added.")
    not_drawn = [v["record"]["id"] for v in entries.values() if not v["drawn"] and v["record"]["date"] == day["date"]]
    if day.get("closed") and not_drawn:
        raise Failed(f"The day is closed, yet {', '.join(not_drawn)} was never drawn.")
    return dict(counts, not_drawn=not_drawn, head=head)


def verify_campaign(listing, days, pinned=None):
    listed = sorted(listing.get("days", []), key=lambda d: d["date"])
    by_date = {d["date"]: d for d in days}
    pins = {d["date"]: d for d in (pinned or {}).get("days", [])}
    for date in pins:
        if date not in {d["date"] for d in listed}:
            raise Failed(f"{date}: a day of the saved campaign file is missing from the list.")
    seen, results = {}, []
    for i, line in enumerate(listed):
        if i:
            expected = (datetime.date.fromisoformat(listed[i - 1]["date"]) + datetime.timedelta(days=1)).isoformat()
            if line["date"] != expected:
                raise Failed(f"{expected}: this day is missing from the campaign's list.")
        day = by_date.get(line["date"])
        if not day:
            raise Failed(f"{line['date']}: this day's record is missing.")
        if day["terms_hash"] != line["terms_hash"] or day["head"] != line["head"]:
            raise Failed(f"{line['date']}: the day's record does not match the campaign's list.")
        try:
            result = verify_day(day, pins.get(line["date"]))
        except Failed as failed:
            failed.reason = f"{line['date']}: {failed.reason}"
            raise
        for item in day["records"]:
            seq = json.loads(item["text"])["seq"]
            if seen.get(seq, item["hash"]) != item["hash"]:
                raise Failed(f"{line['date']}: two days show different records at place {seq}.")
            seen[seq] = item["hash"]
        if day["records"]:
            first = json.loads(day["records"][0]["text"])["seq"]
            before = GENESIS_PREV if first == 1 else seen.get(first - 1)
            if before != day["previous_head"]:
                raise Failed(f"{line['date']}: the day does not follow the day before it.")
        results.append((line["date"], result))
    return results


def load(where):
    if where.startswith(("http://", "https://")):
        with urllib.request.urlopen(where) as res:
            value = json.load(res)
    else:
        with open(where, encoding="utf-8") as f:
            value = json.load(f)
    return value["data"] if isinstance(value, dict) and "data" in value else value


def main(argv):
    args = list(argv)
    pin = None
    if "--pin" in args:
        i = args.index("--pin")
        pin = args[i + 1]
        del args[i : i + 2]
    if not args:
        print("Usage: python3 scripts/verify_draws.py FILE_OR_URL [--pin CAMPAIGN.json]", file=sys.stderr)
        return 2
    source = args[0]
    try:
        value = load(source)
        pinned = load(pin) if pin else None
        if isinstance(value.get("records"), list):
            pin_line = next((d for d in (pinned or {}).get("days", []) if d["date"] == value["date"]), None)
            result = verify_day(value, pin_line)
            print(f"{value['date']}: all {result['draws']} draws of {result['entries']} entries check.")
            return 0
        if isinstance(value.get("days"), list) and all(isinstance(d.get("records"), list) for d in value["days"]):
            listing, days = value["campaign"], value["days"]
        else:
            listing = value
            days = [load(f"{source.rstrip('/')}/{d['date']}") for d in value["days"]]
    except Failed as failed:
        where = f"record {failed.seq} ({failed.id})" if failed.seq else "the day"
        print(f"{where} does not check. {failed.reason}")
        return 1
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"Could not read the record: {err}", file=sys.stderr)
        return 2
    try:
        results = verify_campaign(listing, days, pinned)
    except Failed as failed:
        where = f"record {failed.seq} ({failed.id})" if failed.seq else "the campaign"
        print(f"{where} does not check. {failed.reason}")
        return 1
    for date, r in results:
        print(f"{date}: all {r['draws']} draws of {r['entries']} entries check.")
    print(f"All {len(results)} days check, and they make one chain.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
