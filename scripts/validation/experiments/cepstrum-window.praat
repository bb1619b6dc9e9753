# One frame of "Sound: To PowerCepstrogram..." on a signal of two clicks, to find the analysis window,
# the frame's alignment and what is done to the frame before its spectrum (docs/acoustics.md, "CPPS").
# 0.2 s at 10 kHz (no resampling at a maximum frequency of 5000 Hz): 0.5 at sample 1000, 0.25 at 1040.
#   praat --run scripts/validation/experiments/cepstrum-window.praat
sound = Create Sound from formula: "clicks", 1, 0, 0.2, 10000, "0"
Set value at sample number: 0, 1001, 0.5
Set value at sample number: 0, 1041, 0.25
cepstrogram = To PowerCepstrogram: 60, 0.002, 5000, 50
matrix = To Matrix
# Frame 26 is centred at 0.1 s; row 1 is quefrency 0, rows are 0.0001 s apart.
writeInfoLine: "bin", tab$, "dB"
bins# = {1, 40, 60, 80, 99, 140, 300}
for i to size (bins#)
  bin = bins# [i]
  value = Get value in cell: bin + 1, 26
  appendInfoLine: bin, tab$, fixed$ (10 * log10 (value), 4)
endfor
