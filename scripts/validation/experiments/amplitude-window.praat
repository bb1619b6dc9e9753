# What "amplitude" To AmplitudeTier (period) (the amplitudes behind shimmer) gives a pulse: pulses every
# 10 ms (a steady 100 Hz point process); the sound is silent but for one sample of value 1 at
# 150 ms + offset. The value at the pulse at 150 ms, against the offset, traces the window that
# reads the amplitude around a pulse (its extent, shape and normalisation). With Uneven, the pulses
# after 150 ms come every 12 ms: does the window's right half follow the period after the pulse?
fs = 44100
form Periods
  boolean Uneven 0
endform
pp = Create empty PointProcess: "p", 0, 0.3
for k from 5 to 15
  Add point: k * 0.01
endfor
if uneven
  for k from 1 to 8
    Add point: 0.15 + k * 0.012
  endfor
else
  for k from 16 to 25
    Add point: k * 0.01
  endfor
endif
for step from -24 to 24
  offset = step * 0.00025
  index = round((0.15 + offset) * fs)
  s = Create Sound from formula: "s", 1, 0, 0.3, fs, "if col = index then 1 else 0 fi"
  selectObject: s, pp
  at = To AmplitudeTier (period): 0, 0, 0.0001, 0.02, 1.3
  n = Get number of points
  line$ = fixed$(offset * 1000, 2) + tab$ + string$(n)
  for i to n
    tp = Get time from index: i
    vp = Get value at index: i
    line$ = line$ + tab$ + fixed$(tp, 4) + "=" + fixed$(vp, 9)
  endfor
  appendInfoLine: line$
  removeObject: s, at
endfor
