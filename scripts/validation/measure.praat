# Voicescope acoustic measures, computed by Praat itself, for the validation harness
# (scripts/validation/acoustics.ts). Settings are the ones docs/acoustics.md gives.
#
#   praat --run scripts/validation/measure.praat <file.wav> <pitch floor> <pitch ceiling> <pitch track out | ->
#
# Prints one "key<TAB>value" line per measure ("--undefined--" where Praat has none), then
# "seconds<TAB>..." with the analysis time (reading the file excluded). When the fourth argument is a
# path, the cc pitch track is written there as "time<TAB>f0" lines (0 for unvoiced frames).
form Voicescope measures
  sentence file
  real floor 75
  real ceiling 500
  sentence track -
endform

sound = Read from file: file$
duration = Get total duration
stopwatch

# Pitch: To Pitch (cc), default costs, automatic time step.
selectObject: sound
pitch = To Pitch (cc): 0, floor, 15, "no", 0.03, 0.45, 0.01, 0.35, 0.14, ceiling
f0_mean = Get mean: 0, 0, "Hertz"
f0_median = Get quantile: 0, 0, 0.5, "Hertz"
f0_sd = Get standard deviation: 0, 0, "Hertz"
f0_sd_st = Get standard deviation: 0, 0, "semitones"
f0_min = Get minimum: 0, 0, "Hertz", "Parabolic"
f0_max = Get maximum: 0, 0, "Hertz", "Parabolic"
voiced = Count voiced frames
frames = Get number of frames
voiced_fraction = voiced / frames

# Glottal pulses, jitter and shimmer.
selectObject: sound
points = To PointProcess (periodic, cc): floor, ceiling
jitter = Get jitter (local): 0, 0, 0.0001, 0.02, 1.3
selectObject: sound, points
shimmer = Get shimmer (local): 0, 0, 0.0001, 0.02, 1.3, 1.6
shimmer_db = Get shimmer (local_dB): 0, 0, 0.0001, 0.02, 1.3, 1.6

# Harmonicity (cc).
selectObject: sound
harmonicity = To Harmonicity (cc): 0.01, floor, 0.1, 1.0
hnr = Get mean: 0, 0

# Intensity.
selectObject: sound
intensity = To Intensity: 100, 0, "yes"
intensity_mean = Get mean: 0, 0, "energy"
intensity_sd = Get standard deviation: 0, 0

# Formants (Burg).
selectObject: sound
formant = To Formant (burg): 0, 5, 5500, 0.025, 50
f1 = Get mean: 1, 0, 0, "hertz"
f2 = Get mean: 2, 0, 0, "hertz"
f3 = Get mean: 3, 0, 0, "hertz"

# Pauses: silent intervals between sounding ones.
selectObject: sound
grid = To TextGrid (silences): 100, 0, -25, 0.25, 0.1, "silent", "sounding"
intervals = Get number of intervals: 1
first_sounding = 0
last_sounding = 0
speech = 0
for i to intervals
  label$ = Get label of interval: 1, i
  if label$ = "sounding"
    if first_sounding = 0
      first_sounding = i
    endif
    last_sounding = i
    t_end = Get end time of interval: 1, i
    t_start = Get start time of interval: 1, i
    speech += t_end - t_start
  endif
endfor
pause_count = 0
pause_sum = 0
pause_sq = 0
for i from first_sounding + 1 to last_sounding - 1
  label$ = Get label of interval: 1, i
  if label$ = "silent"
    t_end = Get end time of interval: 1, i
    t_start = Get start time of interval: 1, i
    d = t_end - t_start
    pause_count += 1
    pause_sum += d
    pause_sq += d * d
  endif
endfor
if pause_count > 0
  pause_mean = pause_sum / pause_count
else
  pause_mean = undefined
endif
if pause_count > 1
  pause_sd = sqrt ((pause_sq - pause_count * pause_mean * pause_mean) / (pause_count - 1))
else
  pause_sd = undefined
endif
if first_sounding > 0
  t_end = Get end time of interval: 1, last_sounding
  t_start = Get start time of interval: 1, first_sounding
  span = t_end - t_start
  phonation_ratio = speech / span
else
  phonation_ratio = undefined
endif
# Smoothed cepstral peak prominence, Maryn & Weenink's (2015) settings.
selectObject: sound
cepstrogram = To PowerCepstrogram: 60, 0.002, 5000, 50
cpps = Get CPPS: "no", 0.01, 0.001, 60, 330, 0.05, "parabolic", 0.001, 0, "Straight", "Robust"

seconds = stopwatch

writeInfoLine: "duration_s", tab$, fixed$ (duration, 6)
appendInfoLine: "f0_mean_hz", tab$, f0_mean
appendInfoLine: "f0_median_hz", tab$, f0_median
appendInfoLine: "f0_sd_hz", tab$, f0_sd
appendInfoLine: "f0_sd_st", tab$, f0_sd_st
appendInfoLine: "f0_min_hz", tab$, f0_min
appendInfoLine: "f0_max_hz", tab$, f0_max
appendInfoLine: "jitter_local_pct", tab$, jitter * 100
appendInfoLine: "shimmer_local_pct", tab$, shimmer * 100
appendInfoLine: "shimmer_local_db", tab$, shimmer_db
appendInfoLine: "hnr_db", tab$, hnr
appendInfoLine: "cpps_db", tab$, cpps
appendInfoLine: "intensity_mean_db", tab$, intensity_mean
appendInfoLine: "intensity_sd_db", tab$, intensity_sd
appendInfoLine: "f1_mean_hz", tab$, f1
appendInfoLine: "f2_mean_hz", tab$, f2
appendInfoLine: "f3_mean_hz", tab$, f3
appendInfoLine: "voiced_fraction", tab$, voiced_fraction
appendInfoLine: "pause_count", tab$, pause_count
appendInfoLine: "pause_mean_s", tab$, pause_mean
appendInfoLine: "pause_sd_s", tab$, pause_sd
appendInfoLine: "speech_seconds", tab$, speech
appendInfoLine: "phonation_ratio", tab$, phonation_ratio
appendInfoLine: "seconds", tab$, seconds

if track$ <> "-"
  selectObject: pitch
  n = Get number of frames
  deleteFile: track$
  for i to n
    t = Get time from frame number: i
    f = Get value in frame: i, "Hertz"
    if f = undefined
      f = 0
    endif
    appendFileLine: track$, fixed$ (t, 6), tab$, fixed$ (f, 4)
  endfor
endif
