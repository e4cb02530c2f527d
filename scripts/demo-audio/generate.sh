#!/usr/bin/env bash
# Generates the landing page's audio demo from scripts/demo-audio/calls.json:
#   src/features/marketing/audio/<id>.opus   Ogg Opus, mono, 24 kbps
#   src/features/marketing/audio/<id>.mp3    MP3, mono, 32 kbps (fallback)
#   src/features/marketing/audio/demo-calls.generated.ts   timed transcript
#
# Usage (from the repo root): bash scripts/demo-audio/generate.sh
# Needs: festival (voices cmu_us_slt_arctic_hts, kal_diphone), sox, ffmpeg, node.
# Output is deterministic (sox -R: repeatable dither; ffmpeg bitexact flags):
# running it twice gives byte-identical files.
#
# A line in calls.json may carry an optional "say" field: the text sent to the
# synthesiser when the displayed "text" would be mispronounced (e.g. names).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

SRC="scripts/demo-audio/calls.json"
OUT="src/features/marketing/audio"
TS_OUT="$OUT/demo-calls.generated.ts"

RATE=24000          # final sample rate (Hz), one of Opus's native rates
LEAD_IN=0.25        # silence before the first line (s)
TAIL=0.30           # silence after the last line (s)
# Pauses between turns (s), cycled in order; deterministic but not metronomic.
PAUSES=(0.45 0.38 0.55 0.42 0.60 0.36 0.50 0.47 0.40 0.58)
MAX_BYTES=$((250 * 1024))
TRIM_THRESHOLD=-50d # level below which the synthesiser's edges count as silence
TRIM_MARGIN_MS=25   # kept on each side of the detected speech

# Both voices are slow by default: the HTS agent voice is sped up through the
# engine's own speech-rate option (-r), the diphone voice via Duration_Stretch.
AGENT_VOICE='(begin (voice_cmu_us_slt_arctic_hts)
  (set! hts_engine_params (append hts_engine_params (list (list "-r" 1.1)))))'
CUSTOMER_VOICE="(begin (voice_kal_diphone) (Parameter.set 'Duration_Stretch 0.9))"

for tool in text2wave sox soxi ffmpeg node; do
  command -v "$tool" >/dev/null || { echo "generate.sh: missing tool: $tool" >&2; exit 1; }
done

TMP="$(mktemp -d "${TMPDIR:-/tmp}/demo-audio.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$OUT"

# --- 1. Parse calls.json: one directory per call, one text file per line. ---
node - "$SRC" "$TMP" <<'JS'
const fs = require('fs');
const path = require('path');
const [src, tmp] = process.argv.slice(2);
const { calls } = JSON.parse(fs.readFileSync(src, 'utf8'));
if (!Array.isArray(calls) || calls.length === 0) throw new Error('calls.json: no calls');
const ids = [];
for (const call of calls) {
  for (const key of ['id', 'title', 'summary', 'outcome']) {
    if (typeof call[key] !== 'string' || !call[key]) throw new Error(`call: missing ${key}`);
  }
  if (!/^[a-z0-9-]+$/.test(call.id)) throw new Error(`bad id: ${call.id}`);
  if (!['resolved', 'handed-off'].includes(call.outcome)) throw new Error(`bad outcome: ${call.outcome}`);
  if (!Array.isArray(call.lines) || call.lines.length === 0) throw new Error(`${call.id}: no lines`);
  const dir = path.join(tmp, call.id);
  fs.mkdirSync(dir);
  call.lines.forEach((line, i) => {
    if (!['agent', 'customer'].includes(line.speaker)) throw new Error(`bad speaker: ${line.speaker}`);
    if (typeof line.text !== 'string' || !line.text) throw new Error(`${call.id}[${i}]: no text`);
    const n = String(i).padStart(3, '0');
    fs.writeFileSync(path.join(dir, `${n}.txt`), `${line.say ?? line.text}\n`);
    fs.writeFileSync(path.join(dir, `${n}.speaker`), line.speaker);
  });
  ids.push(call.id);
}
fs.writeFileSync(path.join(tmp, 'ids'), ids.join('\n') + '\n');
JS

silence() { # silence <seconds> <out.wav>: exact number of samples at $RATE
  local samples
  samples=$(node -e "console.log(Math.round(Number(process.argv[1]) * $RATE))" "$1")
  # Format options go before -n: they then apply to the null input itself.
  sox -R -r "$RATE" -c 1 -b 16 -n "$2" trim 0s "${samples}s"
}

# --- 2. Synthesise, process, time and concatenate each call. ---
mapfile -t IDS <"$TMP/ids"
for id in "${IDS[@]}"; do
  dir="$TMP/$id"
  timings="$dir/timings.tsv"   # index<TAB>startSample<TAB>endSample
  : >"$timings"
  parts=()

  silence "$LEAD_IN" "$dir/lead.wav"
  parts+=("$dir/lead.wav")
  pos=$(soxi -s "$dir/lead.wav")

  i=0
  for txt in "$dir"/*.txt; do
    n="$(basename "$txt" .txt)"
    speaker="$(cat "$dir/$n.speaker")"
    raw="$dir/$n.raw.wav"
    seg="$dir/$n.wav"

    if [[ "$speaker" == agent ]]; then
      text2wave -eval "$AGENT_VOICE" "$txt" -o "$raw"
      # Clean studio voice: rumble filter, gentle compression.
      fx=(highpass 80 compand 0.02,0.20 -60,-60,-30,-22,-20,-16,0,-8 -3 -90 0.005)
    else
      text2wave -eval "$CUSTOMER_VOICE" "$txt" -o "$raw"
      # Phone line: 300-3400 Hz band-pass and firmer compression, which also
      # brings the peaky diphone voice to the agent's loudness (about -17 LUFS).
      # The second compand is a peak limiter for the diphone voice's sharp
      # pitch pulses, which would otherwise hold the level down at -1 dBFS.
      fx=(sinc 300-3400
        compand 0.002,0.1 -70,-70,-40,-25,-20,-12,-10,-6,0,-3 -3 -90 0.002
        norm -4 compand 0,0.05 6:-12,-12,-7,-7,0,-6 0 -90 0.002)
    fi
    # Trim the synthesiser's leading/trailing silence (keeping a short margin
    # so soft onsets and decays survive) so timings match the audible speech,
    # then resample, filter, compress and normalise to -1 dBFS.
    raw_len=$(soxi -s "$raw")
    margin=$(($(soxi -r "$raw") * TRIM_MARGIN_MS / 1000))
    sox -R "$raw" "$dir/probe.wav" silence 1 0.01 "$TRIM_THRESHOLD"
    lead=$((raw_len - $(soxi -s "$dir/probe.wav")))
    sox -R "$raw" "$dir/probe.wav" reverse silence 1 0.01 "$TRIM_THRESHOLD"
    tail=$((raw_len - $(soxi -s "$dir/probe.wav")))
    from=$((lead > margin ? lead - margin : 0))
    to=$((tail > margin ? raw_len - tail + margin : raw_len))
    sox -R "$raw" -r "$RATE" -c 1 -b 16 "$seg" trim "${from}s" "=${to}s" "${fx[@]}" norm -1

    len=$(soxi -s "$seg")
    printf '%d\t%d\t%d\n' "$i" "$pos" "$((pos + len))" >>"$timings"
    parts+=("$seg")
    pos=$((pos + len))

    if [[ -e "$dir/$(printf '%03d' $((i + 1))).txt" ]]; then
      pause="${PAUSES[$((i % ${#PAUSES[@]}))]}"
      silence "$pause" "$dir/gap$n.wav"
      parts+=("$dir/gap$n.wav")
      pos=$((pos + $(soxi -s "$dir/gap$n.wav")))
    fi
    i=$((i + 1))
  done

  silence "$TAIL" "$dir/tail.wav"
  parts+=("$dir/tail.wav")

  sox -R "${parts[@]}" "$dir/full.wav"
  total=$(soxi -s "$dir/full.wav")
  expected=$((pos + $(soxi -s "$dir/tail.wav")))
  if [[ "$total" -ne "$expected" ]]; then
    echo "generate.sh: $id: sample count mismatch ($total vs $expected)" >&2
    exit 1
  fi
  echo "$total" >"$dir/total"

  # --- 3. Encode. Bit-exact flags keep reruns byte-identical. ---
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$dir/full.wav" \
    -map_metadata -1 -fflags +bitexact -flags:a +bitexact \
    -c:a libopus -b:a 24k -ac 1 -application voip -frame_duration 20 \
    "$OUT/$id.opus"
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$dir/full.wav" \
    -map_metadata -1 -fflags +bitexact -flags:a +bitexact \
    -c:a libmp3lame -b:a 32k -ac 1 -ar "$RATE" -id3v2_version 0 \
    "$OUT/$id.mp3"

  for f in "$OUT/$id.opus" "$OUT/$id.mp3"; do
    size=$(stat -c %s "$f")
    if ((size > MAX_BYTES)); then
      echo "generate.sh: $f is $size bytes (limit $MAX_BYTES)" >&2
      exit 1
    fi
  done
  printf '%s: %.2f s\n' "$id" "$(node -e "console.log($total / $RATE)")"
done

# --- 4. Write the timed transcript module. ---
node - "$SRC" "$TMP" "$TS_OUT" "$RATE" <<'JS'
const fs = require('fs');
const path = require('path');
const [src, tmp, out, rateArg] = process.argv.slice(2);
const rate = Number(rateArg);
const { calls } = JSON.parse(fs.readFileSync(src, 'utf8'));
const sec = (samples) => Math.round((samples / rate) * 100) / 100;
const str = (s) => JSON.stringify(s);

const blocks = calls.map((call) => {
  const dir = path.join(tmp, call.id);
  const total = Number(fs.readFileSync(path.join(dir, 'total'), 'utf8'));
  const timings = fs
    .readFileSync(path.join(dir, 'timings.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((row) => row.split('\t').map(Number));
  if (timings.length !== call.lines.length) throw new Error(`${call.id}: timing count mismatch`);
  const lines = call.lines.map((line, i) => {
    const [, start, end] = timings[i];
    return `{ speaker: ${str(line.speaker)}, text: ${str(line.text)}, start: ${sec(start)}, end: ${sec(end)} },`;
  });
  return [
    '{',
    `id: ${str(call.id)},`,
    `title: ${str(call.title)},`,
    `summary: ${str(call.summary)},`,
    `outcome: ${str(call.outcome)},`,
    `durationSeconds: ${sec(total)},`,
    'lines: [',
    ...lines,
    '],',
    '},',
  ].join('\n');
});

const ts = `// Generated by scripts/demo-audio/generate.sh from scripts/demo-audio/calls.json. Do not edit.
// Times are in seconds from the start of each call's audio file (<id>.opus / <id>.mp3).

export interface TranscriptLine {
  speaker: 'agent' | 'customer';
  text: string;
  start: number;
  end: number;
}

export interface DemoCall {
  id: string;
  title: string;
  summary: string;
  outcome: 'resolved' | 'handed-off';
  durationSeconds: number;
  lines: TranscriptLine[];
}

export const demoCalls: DemoCall[] = [
${blocks.join('\n')}
];
`;
fs.writeFileSync(out, ts);
JS

npm_config_loglevel=error npx --no-install prettier --log-level warn --write "$TS_OUT"
echo "Wrote $OUT/*.opus, $OUT/*.mp3 and $TS_OUT"
