#!/usr/bin/env bash
# Generates the agent settings page's voice samples: one short greeting in each
# of the four voices a workspace can pick for its phone agent, spoken by the
# offline synthesiser behind that voice:
#   src/features/agent/audio/<id>.mp3   MP3, mono, 32 kbps, 24 kHz
# The ids (harper, calvin, maya, oliver) are the ones stored for a workspace;
# src/features/agent/model/voices.ts lists them with their names and imports
# these files.
#
# Usage (from anywhere; paths are relative to the repo root):
#   bash scripts/voice-samples/generate.sh
#
# Voices: harper and calvin are festival's cmu_us_slt_arctic_hts and
# kal_diphone (as in scripts/demo-audio/generate.sh); maya and oliver are
# espeak-ng's US English female variant (en-us+f3) and British English
# (en-gb-x-rp), a little slower and lower than espeak's defaults and softened
# with EQ. Every sample is brought to about the same loudness, so none sounds
# better just by being louder.
#
# Needs: festival (voices cmu_us_slt_arctic_hts, kal_diphone), espeak-ng, sox,
# ffmpeg (Debian: festival festvox-us-slt-hts festvox-kallpc16k espeak-ng sox
# ffmpeg). Output is deterministic (sox -R: repeatable dither; ffmpeg bitexact
# flags): running it twice gives byte-identical files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

case "${1:-}" in
  "") ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "generate.sh: unknown argument: $1 (see --help)" >&2
    exit 2
    ;;
esac

OUT="src/features/agent/audio"
VOICE_IDS=(harper calvin maya oliver)
RATE=24000          # final sample rate (Hz), as the demo audio
LEAD_IN=0.15        # silence before the greeting (s)
TAIL=0.25           # silence after it (s)
MAX_SECONDS=8       # a sample is a short greeting
MAX_BYTES=$((60 * 1024))
TRIM_THRESHOLD=-50d # level below which the synthesiser's edges count as silence
TRIM_MARGIN_MS=25   # kept on each side of the detected speech
LOUDNESS=-19        # loudness of every sample before encoding (LUFS), so none is louder

greeting() { # greeting <Name>
  echo "Hi, thanks for calling Northwind support. I'm $1, your virtual assistant. How can I help you today?"
}

# Festival's voices are slow by default: the HTS voice is sped up through the
# engine's own speech-rate option (-r), the diphone voice via Duration_Stretch.
HARPER_VOICE='(begin (voice_cmu_us_slt_arctic_hts)
  (set! hts_engine_params (append hts_engine_params (list (list "-r" 1.1)))))'
CALVIN_VOICE="(begin (voice_kal_diphone) (Parameter.set 'Duration_Stretch 0.9))"
# espeak-ng speaks at 175 words a minute by default; a little slower and lower
# sounds less hurried on a phone greeting.
MAYA_ESPEAK=(-v en-us+f3 -s 165 -p 45)
OLIVER_ESPEAK=(-v en-gb-x-rp -s 170 -p 38)

# Processing after trimming and resampling, from a common level (norm -3). The
# studio chain of the demo's agent voice (rumble filter, gentle compression);
# the diphone voice's sharp pitch pulses also get the demo's peak limiter, and
# espeak's buzzy formant voices a softer top and a little body.
STUDIO=(highpass 80 compand "0.02,0.20" "-60,-60,-30,-22,-20,-16,0,-8" -3 -90 0.005)
LIMITER=(norm -4 compand "0,0.05" "6:-12,-12,-7,-7,0,-6" 0 -90 0.002)
SOFTEN=(treble -4 4000 bass 2 200)

for tool in text2wave espeak-ng sox soxi ffmpeg; do
  command -v "$tool" >/dev/null || { echo "generate.sh: missing tool: $tool" >&2; exit 1; }
done

TMP="$(mktemp -d "${TMPDIR:-/tmp}/voice-samples.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$OUT"

for id in "${VOICE_IDS[@]}"; do
  name="${id^}"
  txt="$TMP/$id.txt"
  raw="$TMP/$id.raw.wav"
  wav="$TMP/$id.wav"
  mp3="$OUT/$id.mp3"
  greeting "$name" >"$txt"

  # --- 1. Synthesise. ---
  case "$id" in
    harper)
      text2wave -eval "$HARPER_VOICE" "$txt" -o "$raw"
      fx=("${STUDIO[@]}")
      ;;
    calvin)
      text2wave -eval "$CALVIN_VOICE" "$txt" -o "$raw"
      fx=("${STUDIO[@]}" "${LIMITER[@]}")
      ;;
    maya)
      espeak-ng "${MAYA_ESPEAK[@]}" -f "$txt" -w "$raw"
      fx=("${SOFTEN[@]}" "${STUDIO[@]}")
      ;;
    oliver)
      espeak-ng "${OLIVER_ESPEAK[@]}" -f "$txt" -w "$raw"
      fx=("${SOFTEN[@]}" "${STUDIO[@]}")
      ;;
    *)
      echo "generate.sh: no voice for id: $id" >&2
      exit 1
      ;;
  esac

  # --- 2. Trim the synthesiser's leading/trailing silence (keeping a short
  # margin so soft onsets and decays survive), resample, filter, compress,
  # normalise to -1 dBFS and pad with a little silence. ---
  raw_len=$(soxi -s "$raw")
  margin=$(($(soxi -r "$raw") * TRIM_MARGIN_MS / 1000))
  sox -R "$raw" "$TMP/probe.wav" silence 1 0.01 "$TRIM_THRESHOLD"
  lead=$((raw_len - $(soxi -s "$TMP/probe.wav")))
  sox -R "$raw" "$TMP/probe.wav" reverse silence 1 0.01 "$TRIM_THRESHOLD"
  tail=$((raw_len - $(soxi -s "$TMP/probe.wav")))
  from=$((lead > margin ? lead - margin : 0))
  to=$((tail > margin ? raw_len - tail + margin : raw_len))
  sox -R "$raw" -r "$RATE" -c 1 -b 16 "$TMP/peak.wav" trim "${from}s" "=${to}s" \
    norm -3 "${fx[@]}" norm -1 pad "$LEAD_IN" "$TAIL"

  # --- 3. Match loudness: the voices differ by a few dB at the same peak. The
  # gain goes 1 dB past the target through sox's limiter, then 1 dB back, which
  # keeps peaks at or below -1 dBFS. ---
  measured=$(ffmpeg -nostdin -hide_banner -i "$TMP/peak.wav" -af ebur128 -f null - 2>&1 |
    awk '$1 == "I:" { value = $2 } END { print value }')
  [[ -n "$measured" ]] || { echo "generate.sh: $id: no loudness measured" >&2; exit 1; }
  gain=$(awk -v t="$LOUDNESS" -v m="$measured" 'BEGIN { printf "%.1f", t + 1 - m }')
  sox -R "$TMP/peak.wav" "$wav" gain -l "$gain" gain -1

  # --- 4. Encode. Bit-exact flags keep reruns byte-identical. ---
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$wav" \
    -map_metadata -1 -fflags +bitexact -flags:a +bitexact \
    -c:a libmp3lame -b:a 32k -ac 1 -ar "$RATE" -id3v2_version 0 \
    "$mp3"

  seconds=$(soxi -D "$wav")
  size=$(stat -c %s "$mp3")
  if ! awk -v s="$seconds" -v max="$MAX_SECONDS" 'BEGIN { exit !(s <= max) }'; then
    echo "generate.sh: $id: $seconds s (limit $MAX_SECONDS s)" >&2
    exit 1
  fi
  if ((size > MAX_BYTES)); then
    echo "generate.sh: $mp3 is $size bytes (limit $MAX_BYTES)" >&2
    exit 1
  fi
  printf '%s: %.2f s, %d bytes\n' "$id" "$seconds" "$size"
done

echo "Wrote $OUT/{$(IFS=,; echo "${VOICE_IDS[*]}")}.mp3"
