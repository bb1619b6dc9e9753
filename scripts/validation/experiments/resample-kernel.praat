# "Sound: Resample..." of a one-second impulse: prints every output sample that is not 0, to read the
# interpolation kernel (raising the rate) and the low-pass filter (lowering it) (docs/acoustics.md, "CPPS").
#   praat --run scripts/validation/experiments/resample-kernel.praat 8000 10000 50 4001 1
#   praat --run scripts/validation/experiments/resample-kernel.praat 16000 10000 50 8001 1
form B
  real fs 16000
  real newfs 10000
  integer prec 50
  integer at 8001
  real dur 1
endform
s = Create Sound from formula: "imp", 1, 0, dur, fs, "0"
Set value at sample number: 0, at, 1
r = Resample: newfs, prec
n = Get number of samples
x1 = Get time from sample number: 1
xmin = Get start time
xmax = Get end time
writeInfoLine: "n ", n, " x1 ", fixed$(x1, 9), " xmin ", xmin, " xmax ", xmax
for i to n
  v = Get value at sample number: 0, i
  if abs(v) > 1e-14
    t = Get time from sample number: i
    appendInfoLine: i, tab$, fixed$(t, 9), tab$, fixed$(v, 12)
  endif
endfor
