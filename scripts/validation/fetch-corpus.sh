#!/usr/bin/env bash
# Fetches the real-speech validation corpus listed in corpus-manifest.tsv into a folder (never into the
# repository), checks every file against its SHA-256, and converts it to mono WAV with ffmpeg when the
# source is not WAV. Then:  npx tsx scripts/validation/acoustics.ts --corpus <folder>
#
#   scripts/validation/fetch-corpus.sh <folder>
#
# Manifest lines: <name>.wav <TAB> <sha256 of the downloaded file, or -> <TAB> <url> [<TAB> <start s> <TAB> <seconds>]
# A "-" checksum means "not pinned yet": the file is fetched and its checksum printed, to be pinned.
set -euo pipefail
out=${1:?usage: fetch-corpus.sh <folder>}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/.download"
status=0
while IFS=$'\t' read -r name sha url start seconds; do
  [[ -z "${name// }" || "$name" == \#* ]] && continue
  raw="$out/.download/$(basename "$url")"
  [[ -f "$raw" ]] || curl -fsSL --retry 3 -o "$raw" "$url"
  got=$(sha256sum "$raw" | cut -d' ' -f1)
  if [[ "$sha" == "-" ]]; then
    echo "unpinned: $name $got"
  elif [[ "$got" != "$sha" ]]; then
    echo "checksum mismatch for $name: expected $sha, got $got" >&2
    status=1
    continue
  fi
  args=()
  [[ -n "${start:-}" ]] && args+=(-ss "$start")
  [[ -n "${seconds:-}" ]] && args+=(-t "$seconds")
  ffmpeg -loglevel error -y -i "$raw" "${args[@]}" -ac 1 -c:a pcm_s16le "$out/$name"
done < "$here/corpus-manifest.tsv"
exit $status
