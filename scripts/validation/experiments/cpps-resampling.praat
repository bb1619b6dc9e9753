# Does "To PowerCepstrogram" resample as "Sound: Resample..." does, and at what precision? Prints the
# quefrency step of the cepstrogram (the analysis rate) and the CPPS of the sound as read beside that of
# the sound resampled to 10 kHz at precisions 5, 50, 500, 5000 (docs/acoustics.md, "CPPS").
#   praat --run scripts/validation/experiments/cpps-resampling.praat <clip.wav>
form A
  sentence file
endform
s = Read from file: file$
fs = Get sampling frequency
pc = To PowerCepstrogram: 60, 0.002, 5000, 50
m = To Matrix
nx = Get number of columns
ny = Get number of rows
dy = Get row distance
ymax = Get highest y
selectObject: pc
appendInfoLine: "fs ", fs, " frames ", nx, " quefrencies ", ny, " step ", dy, " 1/step ", 1/dy, " qmax ", ymax
cpps = Get CPPS: "no", 0.01, 0.001, 60, 330, 0.05, "parabolic", 0.001, 0, "Straight", "Robust"
appendInfoLine: "direct ", fixed$(cpps, 4)
for prec from 1 to 4
  p = 10^(prec-1) * 5
  selectObject: s
  r = Resample: 10000, p
  pc2 = To PowerCepstrogram: 60, 0.002, 5000, 50
  c2 = Get CPPS: "no", 0.01, 0.001, 60, 330, 0.05, "parabolic", 0.001, 0, "Straight", "Robust"
  appendInfoLine: "resample 10000 precision ", p, " ", fixed$(c2, 4)
endfor
