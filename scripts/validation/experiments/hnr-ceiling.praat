# The largest HNR To Harmonicity (cc) reports: a signal that repeats exactly every 80 samples
# (a square wave, correlation 1 at lag 80 to the last bit) and, for comparison, a 200 Hz sine.
for case to 2
  if case = 1
    s = Create Sound from formula: "x", 1, 0, 0.3, 16000, "if (col mod 80) < 40 then 0.5 else -0.5 fi"
  else
    s = Create Sound from formula: "x", 1, 0, 0.3, 16000, "0.5 * sin(2*pi*200*x)"
  endif
  h = To Harmonicity (cc): 0.01, 75, 0.1, 1
  n = Get number of frames
  line$ = "case " + string$(case) + ":"
  for i to n
    v = Get value in frame: i
    line$ = line$ + " " + fixed$(v, 3)
  endfor
  appendInfoLine: line$
  removeObject: s, h
endfor
