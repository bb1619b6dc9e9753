# Praat's intermediate objects for jitter and shimmer, for step-by-step comparison with the engine
# (scripts/validation/compare-pulses.ts). Settings as in measure.praat.
#
#   praat --run scripts/validation/pulses.praat <file.wav> <floor> <ceiling> <out prefix>
#
# Writes <out prefix>.pp (one pulse time a line), <out prefix>.amp (AmplitudeTier (period): time, value),
# <out prefix>.ac (To Pitch (ac) track: time, f0, 0 = unvoiced) and prints jitter, shimmer, shimmer_db.
form Pulses
  sentence file
  real floor 75
  real ceiling 500
  sentence out
endform
sound = Read from file: file$
pitch = To Pitch (ac): 0, floor, 15, "no", 0.03, 0.45, 0.01, 0.35, 0.14, ceiling
n = Get number of frames
deleteFile: out$ + ".ac"
for i to n
  t = Get time from frame number: i
  f = Get value in frame: i, "Hertz"
  if f = undefined
    f = 0
  endif
  appendFileLine: out$ + ".ac", fixed$ (t, 6), tab$, fixed$ (f, 4)
endfor
selectObject: sound
points = To PointProcess (periodic, cc): floor, ceiling
n = Get number of points
deleteFile: out$ + ".pp"
for i to n
  t = Get time from index: i
  appendFileLine: out$ + ".pp", fixed$ (t, 9)
endfor
jitter = Get jitter (local): 0, 0, 0.0001, 0.02, 1.3
selectObject: sound, points
shimmer = Get shimmer (local): 0, 0, 0.0001, 0.02, 1.3, 1.6
shimmer_db = Get shimmer (local_dB): 0, 0, 0.0001, 0.02, 1.3, 1.6
selectObject: sound, points
tier = To AmplitudeTier (period): 0, 0, 0.0001, 0.02, 1.3
n = Get number of points
deleteFile: out$ + ".amp"
for i to n
  t = Get time from index: i
  v = Get value at index: i
  appendFileLine: out$ + ".amp", fixed$ (t, 9), tab$, fixed$ (v, 9)
endfor
writeInfoLine: "jitter", tab$, jitter
appendInfoLine: "shimmer", tab$, shimmer
appendInfoLine: "shimmer_db", tab$, shimmer_db
