# What does To Harmonicity (cc) report for digital silence, for a pure sine (r close to 1) and for
# white noise (r close to 0)? Prints every frame's value in each case.
for case to 3
  if case = 1
    s = Create Sound from formula: "x", 1, 0, 0.3, 16000, "0"
  elsif case = 2
    s = Create Sound from formula: "x", 1, 0, 0.3, 16000, "0.5 * sin(2*pi*200*x)"
  else
    s = Create Sound from formula: "x", 1, 0, 0.3, 16000, "randomGauss(0, 0.1)"
  endif
  h = To Harmonicity (cc): 0.01, 75, 0.1, 1
  n = Get number of frames
  line$ = "case " + string$(case) + ":"
  for i to n
    v = Get value in frame: i
    line$ = line$ + " " + fixed$(v, 3)
  endfor
  writeInfoLine: line$
  appendInfoLine: ""
  removeObject: s, h
endfor
