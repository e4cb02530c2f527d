#!/usr/bin/env bash
# Makes the site's font: Inter (from @fontsource-variable/inter), Latin only,
# weights 400–700 (all the site uses), the layout features it needs. 48 KB → 26 KB.
# Needs Debian's fonttools and python3-brotli: apt-get install fonttools python3-brotli
# Run from the repository root: bash scripts/subset-font.sh
set -euo pipefail
source_font=node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2
target=src/assets/fonts/inter-latin-400-700.woff2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Latin-1, typographic punctuation, euro, arrows, minus, the live-call dot.
unicodes='U+0020-007E,U+00A0-00FF,U+0131,U+0152-0153,U+02C6,U+02DA,U+02DC,U+2013-2014,U+2018-201A,U+201C-201E,U+2022,U+2026,U+2039-203A,U+20AC,U+2122,U+2190-2193,U+2212,U+25CF'

pyftsubset "$source_font" --output-file="$work/subset.ttf" --unicodes="$unicodes" \
  --layout-features='kern,liga,calt,tnum,case'
fonttools varLib.instancer "$work/subset.ttf" wght=400:700 -o "$work/instance.ttf" >/dev/null 2>&1
pyftsubset "$work/instance.ttf" --flavor=woff2 --output-file="$target" --unicodes='*' --layout-features='*'
echo "wrote $target ($(stat -c %s "$target") bytes)"
