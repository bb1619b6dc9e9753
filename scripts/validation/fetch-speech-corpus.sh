#!/usr/bin/env bash
# Fetches the speech-estimate validation corpus (pyannote's AMI clips with RTTM speaker turns) into a
# folder (never into the repository) and checks every file against speech-corpus.sha256. Then:
#   VOICESCOPE_CORPUS=<folder> npx tsx scripts/validation/speech-estimate.ts
#
#   scripts/validation/fetch-speech-corpus.sh <folder>
set -euo pipefail
out=${1:?usage: fetch-speech-corpus.sh <folder>}
here=$(cd "$(dirname "$0")" && pwd)
base=https://raw.githubusercontent.com/pyannote/pyannote-audio/develop
mkdir -p "$out/pyannote"
status=0
while read -r sha name src; do
  [[ -z "${sha// }" || "$sha" == \#* ]] && continue
  dest="$out/$name"
  [[ -f "$dest" ]] || curl -fsSL --retry 3 -o "$dest" "$base/$src"
  got=$(sha256sum "$dest" | cut -d' ' -f1)
  if [[ "$got" != "$sha" ]]; then
    echo "checksum mismatch for $name: expected $sha, got $got" >&2
    status=1
  fi
done < "$here/speech-corpus.sha256"
exit $status
