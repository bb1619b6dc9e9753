# Which amplitudes enter Praat's shimmer (local): pulses every 10 ms with a per-pulse amplitude (a
# 2 kHz tone whose level steps at the midpoints between pulses), one pair of pulses 30 ms apart (a
# "period" longer than the longest period, 0.02 s) and one amplitude step above the maximum amplitude
# factor (1.6). Prints the AmplitudeTier (period) values and Praat's shimmer (local); the engine's
# reading of the rules is checked against the printed numbers in docs/acoustics.md.
fs = 16000
pp = Create empty PointProcess: "p", 0, 0.5
times$ = ""
t = 0.05
k = 0
while t < 0.45
  k += 1
  Add point: t
  times$ = times$ + " " + fixed$(t, 3)
  if k = 15
    t += 0.03
  else
    t += 0.01
  endif
endwhile
# amplitude of the pulse nearest in time: 0.6 + 0.3 * frac(k * 0.618), and 3x at the 25th pulse
s = Create Sound from formula: "s", 1, 0, 0.5, fs, "0"
selectObject: pp
n = Get number of points
for i to n
  selectObject: pp
  ti = Get time from index: i
  a = 0.6 + 0.3 * (i * 0.618 - floor(i * 0.618))
  if i = 25
    a = a * 3
  endif
  selectObject: s
  Formula (part): ti - 0.005, ti + 0.005, 1, 1, "a * sin(2 * pi * 2000 * x)"
endfor
selectObject: s, pp
at = To AmplitudeTier (period): 0, 0, 0.0001, 0.02, 1.3
m = Get number of points
for i to m
  tp = Get time from index: i
  v = Get value at index: i
  appendInfoLine: "amp", tab$, fixed$(tp, 4), tab$, fixed$(v, 9)
endfor
selectObject: s, pp
sh = Get shimmer (local): 0, 0, 0.0001, 0.02, 1.3, 1.6
appendInfoLine: "shimmer", tab$, fixed$(sh, 9)
