# How "Get CPPS" counts frames of digital silence: a voice-like sound alone, then followed by 1 s of
# zeros or of faint noise, all at 10 kHz so that nothing is resampled (docs/acoustics.md, "CPPS").
#   praat --run scripts/validation/experiments/cpps-silence.praat
procedure cpps: .label$
  pc = To PowerCepstrogram: 60, 0.002, 5000, 50
  c = Get CPPS: "no", 0.01, 0.001, 60, 330, 0.05, "parabolic", 0.001, 0, "Straight", "Robust"
  appendInfoLine: .label$, tab$, fixed$(c, 4)
  removeObject: pc
endproc
a = Create Sound from formula: "a", 1, 0, 1, 10000, "0.5*(sin(2*pi*150*x) + 0.5*sin(2*pi*300*x) + 0.3*sin(2*pi*450*x)) + randomGauss(0, 0.02)"
@cpps: "voice alone"
z = Create Sound from formula: "z", 1, 0, 1, 10000, "0"
selectObject: a, z
c1 = Concatenate
@cpps: "voice + 1 s zeros"
selectObject: c1
n = Create Sound from formula: "n", 1, 0, 1, 10000, "randomGauss(0, 1e-12)"
selectObject: a, n
c2 = Concatenate
@cpps: "voice + 1 s noise 1e-12"
n2 = Create Sound from formula: "n2", 1, 0, 1, 10000, "randomGauss(0, 1e-4)"
selectObject: a, n2
c3 = Concatenate
@cpps: "voice + 1 s noise 1e-4"
selectObject: n2
@cpps: "noise 1e-4 alone"
selectObject: n
@cpps: "noise 1e-12 alone"
