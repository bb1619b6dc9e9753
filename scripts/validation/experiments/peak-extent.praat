# Over which samples is a frame's local peak ("intensity" in the Pitch object) taken? A quiet 200 Hz
# sine with one loud sample; time step one sample; the frames whose intensity is near 1 saw the spike.
#   praat --run peak-extent.praat <spike sample> <floor> <rate> cc|ac <out.Pitch>
form Peak
  integer spike 1000
  real floor 100
  real fs 10000
  word method cc
  sentence out /tmp/pitchx/peak.Pitch
endform
s = Create Sound from formula: "s", 1, 0, 0.2, fs, "0.01*sin(2*pi*200*x) + if col = spike then 1 else 0 fi"
if method$ = "cc"
  p = To Pitch (cc): 1/fs, floor, 15, "no", 0.03, 0.45, 0.01, 0.35, 0.14, 500
else
  p = To Pitch (ac): 1/fs, floor, 15, "no", 0.03, 0.45, 0.01, 0.35, 0.14, 500
endif
Save as short text file: out$
