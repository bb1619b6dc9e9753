# Praat's To Pitch candidates of a sound, every frame, as a short text file: per frame the local peak
# ("intensity") and each candidate's frequency and strength (the unvoiced one first with strength 0).
# Compared with the engine's candidates frame by frame (docs/acoustics.md, "Pitch").
#
#   praat --run pitch-candidates.praat <file.wav> <out.Pitch> cc 75 500 0.01 0.35 0.14 0.03 0.45
form Candidates
  sentence file
  sentence out
  word method cc
  real floor 75
  real ceiling 500
  real octave 0.01
  real jump 0.35
  real vuv 0.14
  real silence 0.03
  real voicing 0.45
endform
sound = Read from file: file$
if method$ = "cc"
  pitch = To Pitch (cc): 0, floor, 15, "no", silence, voicing, octave, jump, vuv, ceiling
else
  pitch = To Pitch (ac): 0, floor, 15, "no", silence, voicing, octave, jump, vuv, ceiling
endif
Save as short text file: out$
