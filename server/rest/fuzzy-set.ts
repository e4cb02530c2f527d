/**
 * Approximate string matching as the Haskell `fuzzyset` package (0.2) does it,
 * which PostgREST uses for its "Perhaps you meant…" hints (decision 038): the
 * candidates sharing n-grams with the query (trigrams, then bigrams if those
 * find nothing) are ranked by cosine similarity, the best 50 are scored again
 * by normalised Levenshtein similarity, and those at or above the minimum
 * score are returned, best first. A case-insensitive exact match scores 1.
 */

interface Item {
  magnitude: number;
  /** The lower-cased entry. */
  entry: string;
}

const GRAM_SIZES = [3, 2] as const;
const LEVENSHTEIN_POOL = 50;

/** Lower case, keeping letters, digits, white space and commas (as `normalized`). */
function normalized(text: string): string {
  return [...text.toLowerCase()].filter((char) => /[\p{L}\p{N}\s,]/u.test(char)).join('');
}

export function gramVector(text: string, size: number): Map<string, number> {
  const chars = [...`-${normalized(text)}-`];
  const vector = new Map<string, number>();
  for (let offset = 0; offset + size <= chars.length; offset += 1) {
    const gram = chars.slice(offset, offset + size).join('');
    vector.set(gram, (vector.get(gram) ?? 0) + 1);
  }
  return vector;
}

function norm(counts: Iterable<number>): number {
  let sum = 0;
  for (const count of counts) sum += count * count;
  return Math.sqrt(sum);
}

/** 1 - distance / length of the longer (text-metrics' levenshteinNorm), by code points. */
export function levenshteinSimilarity(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  const longest = Math.max(left.length, right.length);
  if (longest === 0) return 1;
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= right.length; j += 1) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return 1 - previous[right.length]! / longest;
}

export class FuzzySet {
  private readonly exact = new Map<string, string>();
  private readonly items = new Map<number, Item[]>();
  private readonly dictionary = new Map<number, Map<string, { index: number; count: number }[]>>();

  /** As `fromList` (a right fold: the last value is added first; a repeated one is kept once). */
  constructor(values: Iterable<string>) {
    for (const value of [...values].reverse()) this.add(value);
  }

  private add(value: string): void {
    const key = value.toLowerCase();
    if (this.exact.has(key)) return;
    for (const size of GRAM_SIZES) {
      const items = this.items.get(size) ?? [];
      const dictionary = this.dictionary.get(size) ?? new Map();
      const grams = gramVector(key, size);
      for (const [gram, count] of grams) {
        const list = dictionary.get(gram) ?? [];
        list.push({ index: items.length, count });
        dictionary.set(gram, list);
      }
      items.push({ magnitude: norm(grams.values()), entry: key });
      this.items.set(size, items);
      this.dictionary.set(size, dictionary);
    }
    this.exact.set(key, value);
  }

  /** Matches scoring at least `minScore`, best first, with their scores. */
  get(value: string, minScore = 0.33): [number, string][] {
    const key = value.toLowerCase();
    const exact = this.exact.get(key);
    if (exact !== undefined) return [[1, exact]];
    for (const size of GRAM_SIZES) {
      const found = this.matches(key, size, minScore);
      if (found.length > 0) return found;
    }
    return [];
  }

  /** The best match scoring at least `minScore` (`getOneWithMinScore`; `getOne` is 0.33). */
  getOne(value: string, minScore = 0.33): string | undefined {
    return this.get(value, minScore)[0]?.[1];
  }

  private matches(key: string, size: number, minScore: number): [number, string][] {
    const query = gramVector(key, size);
    const queryMagnitude = norm(query.values());
    const dictionary = this.dictionary.get(size);
    const items = this.items.get(size) ?? [];
    const dots = new Map<number, number>();
    for (const [gram, count] of query) {
      for (const { index, count: itemCount } of dictionary?.get(gram) ?? []) {
        dots.set(index, (dots.get(index) ?? 0) + itemCount * count);
      }
    }
    const byCosine: [number, string][] = [];
    for (const [index, dot] of dots) {
      const item = items[index];
      if (!item || item.magnitude === 0 || queryMagnitude === 0) continue;
      byCosine.push([dot / (queryMagnitude * item.magnitude), item.entry]);
    }
    byCosine.sort((a, b) => b[0] - a[0]);
    return byCosine
      .slice(0, LEVENSHTEIN_POOL)
      .map(([, entry]): [number, string] => [levenshteinSimilarity(key, entry), entry])
      .sort((a, b) => b[0] - a[0])
      .filter(([score]) => score >= minScore)
      .map(([score, entry]): [number, string] => [score, this.exact.get(entry) ?? entry]);
  }
}
