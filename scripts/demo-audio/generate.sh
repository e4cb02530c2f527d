#!/usr/bin/env bash
# Generates recorded calls (audio + a timed transcript) from a JSON script of
# calls. With no arguments, the landing page's audio demo from
# scripts/demo-audio/calls.json:
#   src/features/marketing/audio/<id>.opus   Ogg Opus, mono, 24 kbps
#   src/features/marketing/audio/<id>.mp3    MP3, mono, 32 kbps (fallback)
#   src/features/marketing/audio/demo-calls.generated.ts   timed transcript
#
# Usage (from anywhere; paths are relative to the repo root):
#   bash scripts/demo-audio/generate.sh [--source FILE] [--out DIR]
#        [--formats opus,mp3] [--transcript FILE]
# --transcript ending in .ts writes the landing page's module (calls with
# outcome resolved | handed-off, speakers agent | customer); ending in .json, a
# JSON file of scenarios for the dashboard's sample calls (outcome resolved |
# escalated | voicemail, sentiment, extracted fields, speakers agent | caller,
# times in ms). The sample recordings of a new workspace:
#   bash scripts/demo-audio/generate.sh --source scripts/demo-audio/sample-calls.json \
#     --out supabase/sample-recordings --formats mp3 \
#     --transcript supabase/sample-recordings/scenarios.generated.json
#   node scripts/demo-audio/sample-calls-sql.mjs   # the scenarios' SQL, from that JSON
#
# Needs: festival (voices cmu_us_slt_arctic_hts, kal_diphone), sox, ffmpeg, node
# (Debian: festival festvox-us-slt-hts festvox-kallpc16k sox ffmpeg).
# Output is deterministic (sox -R: repeatable dither; ffmpeg bitexact flags):
# running it twice gives byte-identical files.
#
# A line may carry an optional "say" field: the text sent to the synthesiser
# when the displayed "text" would be mispronounced (e.g. names). A call may
# take its lines from another file's call instead of listing them:
# "lines_from": "calls.json#billing-question" (path relative to the source),
# which gives the same audio as that call.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

SRC="scripts/demo-audio/calls.json"
OUT="src/features/marketing/audio"
FORMATS="opus,mp3"
TRANSCRIPT=""
while (($#)); do
  case "$1" in
    --source | --out | --formats | --transcript)
      (($# >= 2)) || { echo "generate.sh: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --source) SRC="$2" ;;
        --out) OUT="$2" ;;
        --formats) FORMATS="$2" ;;
        --transcript) TRANSCRIPT="$2" ;;
      esac
      shift 2
      ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "generate.sh: unknown argument: $1 (see --help)" >&2
      exit 2
      ;;
  esac
done
OUT="${OUT%/}"
TS_OUT="${TRANSCRIPT:-$OUT/demo-calls.generated.ts}"
case "$TS_OUT" in
  *.ts) KIND=landing ;;
  *.json) KIND=samples ;;
  *) echo "generate.sh: --transcript must end in .ts or .json" >&2; exit 2 ;;
esac
IFS=, read -r -a FORMAT_LIST <<<"$FORMATS"
((${#FORMAT_LIST[@]} > 0)) || { echo "generate.sh: no --formats" >&2; exit 2; }
for format in "${FORMAT_LIST[@]}"; do
  [[ "$format" == opus || "$format" == mp3 ]] || {
    echo "generate.sh: unknown format: $format (opus, mp3)" >&2
    exit 2
  }
done
[[ -f "$SRC" ]] || { echo "generate.sh: no such file: $SRC" >&2; exit 2; }

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

# --- 1. Parse the source: one directory per call, one text file per line. ---
# The calls, checked and with "lines_from" resolved, go to $TMP/calls.json.
node - "$SRC" "$TMP" "$KIND" <<'JS'
const fs = require('fs');
const path = require('path');
const [src, tmp, kind] = process.argv.slice(2);
const name = path.basename(src);
const { calls } = JSON.parse(fs.readFileSync(src, 'utf8'));
if (!Array.isArray(calls) || calls.length === 0) throw new Error(`${name}: no calls`);
const outcomes = kind === 'landing' ? ['resolved', 'handed-off'] : ['resolved', 'escalated', 'voicemail'];
const speakers = kind === 'landing' ? ['agent', 'customer'] : ['agent', 'caller'];
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const ids = [];
for (const call of calls) {
  for (const key of ['id', 'title', 'summary', 'outcome']) {
    if (typeof call[key] !== 'string' || !call[key]) throw new Error(`call: missing ${key}`);
  }
  if (!/^[a-z0-9-]+$/.test(call.id)) throw new Error(`bad id: ${call.id}`);
  if (ids.includes(call.id)) throw new Error(`duplicate id: ${call.id}`);
  if (!outcomes.includes(call.outcome)) throw new Error(`bad outcome: ${call.outcome}`);
  if (kind === 'samples') {
    if (!['positive', 'neutral', 'negative'].includes(call.sentiment)) {
      throw new Error(`${call.id}: bad sentiment: ${call.sentiment}`);
    }
    if (!isObject(call.extracted)) throw new Error(`${call.id}: extracted must be an object`);
  }
  if (call.lines_from !== undefined) {
    // Another file's call, e.g. "calls.json#billing-question": its lines, its
    // speakers named as this kind names them (customer <-> caller).
    if (call.lines !== undefined) throw new Error(`${call.id}: both lines and lines_from`);
    const [file, id] = String(call.lines_from).split('#');
    const other = JSON.parse(fs.readFileSync(path.join(path.dirname(src), file), 'utf8'));
    const found = other.calls.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`${call.id}: no call ${call.lines_from}`);
    call.lines = found.lines.map((line) => ({
      ...line,
      speaker: line.speaker === 'agent' ? 'agent' : speakers[1],
    }));
    delete call.lines_from;
  }
  if (!Array.isArray(call.lines) || call.lines.length === 0) throw new Error(`${call.id}: no lines`);
  const dir = path.join(tmp, call.id);
  fs.mkdirSync(dir);
  call.lines.forEach((line, i) => {
    if (!speakers.includes(line.speaker)) throw new Error(`bad speaker: ${line.speaker}`);
    if (typeof line.text !== 'string' || !line.text) throw new Error(`${call.id}[${i}]: no text`);
    const n = String(i).padStart(3, '0');
    fs.writeFileSync(path.join(dir, `${n}.txt`), `${line.say ?? line.text}\n`);
    fs.writeFileSync(path.join(dir, `${n}.speaker`), line.speaker);
  });
  ids.push(call.id);
}
fs.writeFileSync(path.join(tmp, 'ids'), ids.join('\n') + '\n');
fs.writeFileSync(path.join(tmp, 'calls.json'), JSON.stringify({ calls }));
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
  for format in "${FORMAT_LIST[@]}"; do
    f="$OUT/$id.$format"
    if [[ "$format" == opus ]]; then
      ffmpeg -nostdin -hide_banner -loglevel error -y -i "$dir/full.wav" \
        -map_metadata -1 -fflags +bitexact -flags:a +bitexact \
        -c:a libopus -b:a 24k -ac 1 -application voip -frame_duration 20 \
        "$f"
    else
      ffmpeg -nostdin -hide_banner -loglevel error -y -i "$dir/full.wav" \
        -map_metadata -1 -fflags +bitexact -flags:a +bitexact \
        -c:a libmp3lame -b:a 32k -ac 1 -ar "$RATE" -id3v2_version 0 \
        "$f"
    fi
    size=$(stat -c %s "$f")
    if ((size > MAX_BYTES)); then
      echo "generate.sh: $f is $size bytes (limit $MAX_BYTES)" >&2
      exit 1
    fi
  done
  printf '%s: %.2f s\n' "$id" "$(node -e "console.log($total / $RATE)")"
done

# --- 4. Write the timed transcript: the landing page's module, or the samples' JSON. ---
if [[ "$KIND" == landing ]]; then
node - "$SRC" "$TMP" "$TS_OUT" "$RATE" <<'JS'
const fs = require('fs');
const path = require('path');
const [src, tmp, out, rateArg] = process.argv.slice(2);
const rate = Number(rateArg);
const { calls } = JSON.parse(fs.readFileSync(path.join(tmp, 'calls.json'), 'utf8'));
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

const ts = `// Generated by scripts/demo-audio/generate.sh from ${src}. Do not edit.
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
else
node - "$SRC" "$TMP" "$TS_OUT" "$RATE" "$FORMATS" <<'JS'
const fs = require('fs');
const path = require('path');
const [src, tmp, out, rateArg, formats] = process.argv.slice(2);
const rate = Number(rateArg);
const { calls } = JSON.parse(fs.readFileSync(path.join(tmp, 'calls.json'), 'utf8'));
const ms = (samples) => Math.round((samples / rate) * 1000);
const format = formats.split(',')[0];

const scenarios = calls.map((call) => {
  const dir = path.join(tmp, call.id);
  const total = Number(fs.readFileSync(path.join(dir, 'total'), 'utf8'));
  const timings = fs
    .readFileSync(path.join(dir, 'timings.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((row) => row.split('\t').map(Number));
  if (timings.length !== call.lines.length) throw new Error(`${call.id}: timing count mismatch`);
  const durationMs = ms(total);
  // A sample call is a believable call, and its recording stays small.
  if (durationMs < 20000 || durationMs > 60000) {
    throw new Error(`${call.id}: ${durationMs / 1000} s, not within 20-60 s`);
  }
  return {
    id: call.id,
    title: call.title,
    summary: call.summary,
    outcome: call.outcome,
    sentiment: call.sentiment,
    extracted: call.extracted,
    recording: `${call.id}.${format}`,
    duration_seconds: Math.round(durationMs / 10) / 100,
    duration_ms: durationMs,
    transcript: call.lines.map((line, i) => ({
      speaker: line.speaker,
      start_ms: ms(timings[i][1]),
      end_ms: ms(timings[i][2]),
      text: line.text,
    })),
  };
});

const json = {
  generated_by: `scripts/demo-audio/generate.sh from ${src}. Do not edit.`,
  times: 'Milliseconds from the start of each scenario\'s recording (<id>.<format> beside this file).',
  scenarios,
};
fs.writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
JS
fi

npm_config_loglevel=error npx --no-install prettier --log-level warn --write "$TS_OUT"
echo "Wrote $OUT/<id>.{$FORMATS} and $TS_OUT"
