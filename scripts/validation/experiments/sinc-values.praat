# Praat's band-limited ("sinc70", "sinc700") interpolation of a fixed pseudo-random sound, read at
# points between samples, near the middle and near both ends, to compare with the engine's
# interpolateSinc. Samples: x[k] = sin(k*k*0.37) * 0.5 (k = 0..299), 1000 Hz, so sample k sits at
# (k + 0.5) ms. Points: six in the middle, three within a sample of each end, four at 1-28 samples
# from each end (where fewer samples than the depth remain on one side).
s = Create Sound from formula: "x", 1, 0, 0.3, 1000, "sin((col-1)*(col-1)*0.37) * 0.5"
for depth from 1 to 2
  method$ = if depth = 1 then "sinc70" else "sinc700" fi
  for p to 20
    if p <= 6
      index = 150 + p * 0.13
    elsif p <= 9
      index = (p - 7) * 0.31 + 0.2
    elsif p <= 12
      index = 299 - (p - 10) * 0.37 - 0.1
    elsif p <= 16
      index = 1.3 + (p - 13) * (p - 13) * 3
    else
      index = 297.6 - (p - 17) * (p - 17) * 3
    endif
    t = (index + 0.5) / 1000
    v = Get value at time: 1, t, method$
    appendInfoLine: method$, tab$, fixed$(index, 6), tab$, fixed$(v, 15)
  endfor
endfor
