#!/usr/bin/env bash
# Cuts and joins the fetched real-speech files (fetch-corpus.sh) into the acoustic validation clips:
# at least 20 clips of 30-90 s of conversational, read and Parkinsonian speech and sustained vowels.
# Needs sox. The recipe is this file; the clips land in <clips folder> (never in the repository).
#
#   scripts/validation/build-clips.sh <corpus folder> <clips folder>
#
# Clips (21, about 16 minutes):
#   ami-<name>        the 14 AMI meeting excerpts of pyannote-audio, 30 s each, as they are (conversational)
#   silero-test       silero-vad's 60 s test recording, as it is (read speech)
#   aepyx8k-1..3      silero-vad's 169 s 8 kHz recording cut in three 56.4 s parts (telephone-band speech)
#   pcgita-001        PC-GITA speaker 001 (Parkinson's): read text, DDK, /a/, then the read text again,
#                     0.5 s of silence between parts (about 37 s)
#   vowels            the sustained vowels (PC-GITA /a/ and /u/, Parselmouth a and aaaa02) three times
#                     over with 0.5 s gaps, at 16 kHz (about 40 s)
#   words             the Parselmouth words and short utterances, at 16 kHz, 0.5 s gaps, twice over (about 30 s)
set -euo pipefail
src=${1:?usage: build-clips.sh <corpus folder> <clips folder>}
out=${2:?usage: build-clips.sh <corpus folder> <clips folder>}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for n in sample dev00 dev01 trn01 trn02 trn03 trn04 trn05 trn06 trn07 trn08 trn09 tst00 tst01; do
  sox "$src/pyannote/$n.wav" -b 16 "$out/ami-$n.wav"
done
sox "$src/silero/test.wav" -b 16 "$out/silero-test.wav"
for i in 0 1 2; do
  sox "$src/silero/aepyx_8k.wav" -b 16 "$out/aepyx8k-$((i + 1)).wav" trim "$(echo "$i * 56.384" | bc)" 56.384
done

# Parts converted to 16 kHz mono 16-bit, with a 0.5 s gap after each.
part() { sox "$1" -b 16 -c 1 -r 16000 "$tmp/$2.wav" remix - pad 0 0.5; }
d=$src/disvoice
part "$d/001_readtext_PCGITA.wav" read; part "$d/001_ddk1_PCGITA.wav" ddk; part "$d/001_a1_PCGITA.wav" pa
sox "$tmp/read.wav" "$tmp/ddk.wav" "$tmp/pa.wav" "$tmp/read.wav" "$out/pcgita-001.wav"

p=$src/parselmouth
part "$d/098_u1_PCGITA.wav" pu; part "$p/a.wav" a; part "$p/aaaa02.wav" aaaa
v=("$tmp/pa.wav" "$tmp/pu.wav" "$tmp/a.wav" "$tmp/aaaa.wav")
sox "${v[@]}" "${v[@]}" "${v[@]}" "$out/vowels.wav"

w=()
for n in 1_b 1_y 2_b 2_y 3_b 3_y 4_b 4_y 5_b 5_y bat bet example test the_north_wind_and_the_sun; do
  part "$p/$n.wav" "w-$n"
  w+=("$tmp/w-$n.wav")
done
sox "${w[@]}" "${w[@]}" "$out/words.wav"
ls "$out"/*.wav | wc -l
