# Which samples does To Pitch (cc) read for a frame? A 200 Hz periodic sound (period a whole number
# of samples) with one sample disturbed, a frame at every sample; the frames whose candidate near 200 Hz
# is weakened saw the disturbed sample (docs/acoustics.md, "Pitch").
#   praat --run cc-extent.praat <spike sample> <floor> <rate> cc <out.Pitch>
form Extent
  integer spike 1000
  real floor 100
  real fs 10000
  word method cc
  sentence out /tmp/pitchx/extent.Pitch
endform
s = Create Sound from formula: "s", 1, 0, 0.2, fs, "sin(2*pi*200*x) + 0.5*sin(2*pi*400*x + 1) + if col = spike then 1 else 0 fi"
if method$ = "cc"
  p = To Pitch (cc): 1/fs, floor, 15, "no", 0.03, 0.45, 0.01, 0.35, 0.14, 500
else
  p = To Pitch (ac): 1/fs, floor, 15, "no", 0.03, 0.45, 0.01, 0.35, 0.14, 500
endif
Save as short text file: out$
