# CPPS of deterministic signals, for the unit tests (test/unit/acoustics/cepstrum.test.ts).
# The same formulas are evaluated there at the sample times (i + 0.5) / rate.
#   praat --run scripts/validation/experiments/cpps-synthetic.praat
procedure cpps: .rate, .formula$
  .sound = Create Sound from formula: "s", 1, 0, 1, .rate, .formula$
  .cepstrogram = To PowerCepstrogram: 60, 0.002, 5000, 50
  .value = Get CPPS: "no", 0.01, 0.001, 60, 330, 0.05, "parabolic", 0.001, 0, "Straight", "Robust"
  appendInfoLine: .rate, tab$, fixed$ (.value, 6), tab$, .formula$
  removeObject: .sound, .cepstrogram
endproc
writeInfoLine: "rate", tab$, "CPPS (dB)", tab$, "formula"
voice$ = "round(32767 * (0.5*sin(2*pi*120*x) + 0.3*sin(2*pi*240*x + 1) + 0.2*sin(2*pi*360*x + 2) + 0.1*sin(2*pi*1234.5*x) + 0.05*sin(12345*x*x))) / 32768"
call cpps 10000 'voice$'
call cpps 16000 'voice$'
call cpps 8000 'voice$'
