"""
Reference computation of the change statistics (docs/change.md), independent of the workstation's code:
recomputes every figure of participant_summary.csv from measures_long.csv and recordings.csv alone.

Run in an export folder: python3 change_reference.py <k>  (reads reliability.json: measure -> r).
Prints one JSON object: compared, counts (per verdict), bad (first 20 disagreements), nbad, missing.
Used by test/integration/export/change-reference.test.ts and test/integration/study/.
"""
import json, math, sys
import numpy as np, pandas as pd

k = int(sys.argv[1])
rel = json.load(open('reliability.json'))
rec = pd.read_csv('recordings.csv', dtype=str, keep_default_na=False)
long = pd.read_csv('measures_long.csv', dtype=str, keep_default_na=False)
summ = pd.read_csv('participant_summary.csv', dtype=str, keep_default_na=False)

# Usable recordings only: uploaded, and not excluded by the researcher (docs/export.md, "Curated recordings").
excluded = rec['excluded'] == 'true'
up = rec[(rec['upload_state'] == 'uploaded') & ~excluded][['recording', 'api_version']]
v = long[(long['value'] != '')][['recording', 'participant', 'recorded_at_utc', 'measure', 'value']]
v = v.merge(up, on='recording')
v['value'] = v['value'].astype(float)
v['recording'] = v['recording'].astype(int)
v['t'] = pd.to_datetime(v['recorded_at_utc'], utc=True)
v = v.sort_values(['participant', 'measure', 'api_version', 't', 'recording'])

def sd(xs):
    return float(np.std(xs, ddof=1)) if len(xs) >= 2 else None

def usable(s, scale):
    return s is not None and math.isfinite(s) and s > 1e-9 * max(1.0, abs(scale))

series = {key: g for key, g in v.groupby(['participant', 'measure', 'api_version'])}
cohort = {}
for (p, m, ver), g in series.items():
    if len(g) >= k:
        cohort.setdefault((m, ver), []).append(g['value'].to_numpy()[:k])
ref = {}
for key, bs in cohort.items():
    allv = np.concatenate(bs)
    if len(bs) >= 2:
        within = sum(float(((b - b.mean()) ** 2).sum()) for b in bs)
        df = sum(len(b) - 1 for b in bs)
        ref[key] = (float(allv.mean()), math.sqrt(within / df) if df > 0 else None, float(np.std(allv, ddof=1)))
    else:
        ref[key] = (float(allv.mean()), None, None)

def expected(p, m, ver, g):
    xs = g['value'].to_numpy()
    n = len(xs)
    weeks = ((g['t'] - g['t'].iloc[0]).dt.total_seconds() * 1000 / (7 * 24 * 3600 * 1000)).to_numpy()
    trend = None
    if n >= 3 and float(((weeks - weeks.mean()) ** 2).sum()) > 0:
        trend = float(((weeks - weeks.mean()) * (xs - xs.mean())).sum() / ((weeks - weeks.mean()) ** 2).sum())
    r = rel.get(m)
    e = dict(n=n, baseline=None, baseline_sd=None, change=None, sd_cohort_within=None, sd_used=None,
             change_in_sd=None, reliability=r, rci_sd=None, s_diff=None, rci=None, trend_per_week=trend,
             verdict=None, reliable_change=None)
    cmean, cwithin, cbase = ref.get((m, ver), (None, None, None))
    e['sd_cohort_within'] = cwithin
    e['rci_sd'] = cbase
    if n < k:
        e['verdict'] = 'no_baseline_yet'
        return e
    b = xs[:k]
    bmean = float(b.mean())
    bsd = sd(b)
    e['baseline'], e['baseline_sd'] = bmean, bsd
    if n <= k:
        e['verdict'] = 'no_session_after_baseline'
        return e
    change = float(xs[-1]) - bmean
    e['change'] = change
    own = bsd if usable(bsd, bmean) else None
    floor = cwithin if usable(cwithin, cmean if cmean is not None else bmean) else None
    used = own if floor is None else floor if own is None else max(own, floor)
    e['sd_used'] = used
    e['change_in_sd'] = None if used is None else change / used
    if r is None:
        e['verdict'] = 'trend_only'
        return e
    if not usable(cbase, cmean if cmean is not None else bmean):
        e['verdict'] = 'no_cohort_sd'
        return e
    sdiff = math.sqrt(2) * cbase * math.sqrt(1 - r)
    e['s_diff'], e['rci'] = sdiff, change / sdiff
    e['reliable_change'] = 'true' if abs(change / sdiff) >= 1.96 else 'false'
    e['verdict'] = ('reliable_increase' if change > 0 else 'reliable_decrease') if abs(change / sdiff) >= 1.96 else 'not_reliable'
    return e

NUM = ['baseline', 'baseline_sd', 'change', 'sd_cohort_within', 'sd_used', 'change_in_sd', 'reliability',
       'rci_sd', 's_diff', 'rci', 'trend_per_week']
bad, compared, counts = [], 0, {}
rows = summ[summ['api_version'] != '']
numeric = set(v['measure'])
seen = set()
for _, row in rows.iterrows():
    key = (row['participant'], row['measure'], row['api_version'])
    if row['change_verdict'] == '':
        continue  # a category
    seen.add(key)
    g = series.get(key)
    if g is None:
        bad.append([list(key), 'no values in the long form'])
        continue
    e = expected(*key, g)
    compared += 1
    counts[e['verdict']] = counts.get(e['verdict'], 0) + 1
    if int(row['n']) != e['n']:
        bad.append([list(key), 'n', row['n'], e['n']])
    if row['change_verdict'] != e['verdict']:
        bad.append([list(key), 'verdict', row['change_verdict'], e['verdict']])
    if (row['reliable_change'] or None) != e['reliable_change']:
        bad.append([list(key), 'reliable_change', row['reliable_change'], e['reliable_change']])
    for c in NUM:
        got = None if row[c] == '' else float(row[c])
        want = e[c]
        if (got is None) != (want is None) or (got is not None and abs(got - want) > 1e-9 * max(1.0, abs(want))):
            bad.append([list(key), c, got, want])
missing = [list(k) for k in series if k not in seen]
print(json.dumps(dict(compared=compared, counts=counts, bad=bad[:20], nbad=len(bad), missing=missing[:5])))
