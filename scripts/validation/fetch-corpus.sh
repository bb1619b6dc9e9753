#!/usr/bin/env bash
# Fetches the real-speech validation corpus listed in corpus-manifest.tsv into a folder (never into the
# repository) from the public repositories' raw files, and checks every file against its SHA-256.
# Then build the clips and run the harness:
#
#   scripts/validation/fetch-corpus.sh <corpus folder>
#   scripts/validation/build-clips.sh <corpus folder> <clips folder>
#   npx tsx scripts/validation/acoustics.ts --corpus <clips folder>
#
# Files already present with the right checksum are not fetched again.
set -euo pipefail
out=${1:?usage: fetch-corpus.sh <corpus folder>}
here=$(cd "$(dirname "$0")" && pwd)
status=0
while IFS=$'\t' read -r name sha url; do
  [[ -z "${name// }" || "$name" == \#* ]] && continue
  file="$out/$name"
  mkdir -p "$(dirname "$file")"
  if [[ ! -f "$file" ]] || [[ "$(sha256sum "$file" | cut -d' ' -f1)" != "$sha" ]]; then
    curl -fsSL --retry 3 -o "$file" "$url" || { echo "could not fetch $url" >&2; status=1; continue; }
  fi
  got=$(sha256sum "$file" | cut -d' ' -f1)
  if [[ "$got" != "$sha" ]]; then
    echo "checksum mismatch for $name: expected $sha, got $got" >&2
    status=1
  fi
done < "$here/corpus-manifest.tsv"
exit $status
