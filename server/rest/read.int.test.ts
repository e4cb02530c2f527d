import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRestError, startRestTestServer, type RestTestServer } from './testing/rest-server';

/**
 * Reads through /rest/v1 with the official client (raw fetch only where the
 * client has no API), against the fixture schema (testing/fixture.sql and
 * testing/integration-fixture.sql), on PGlite and on PostgreSQL.
 */

let rest: RestTestServer;

/** A select on a table, as the client builds it, to add filters to. */
type Query = ReturnType<ReturnType<RestTestServer['anon']['from']>['select']>;

/** The ids of rows read as `select=id`. */
function idsOf(data: unknown): number[] {
  return ((data ?? []) as { id: number }[]).map((row) => row.id);
}

beforeAll(async () => {
  rest = await startRestTestServer();
});
afterAll(() => rest?.close());

describe('selecting columns', () => {
  it('returns only the named columns, in the order of the rows asked for', async () => {
    const result = await rest.anon.from('books').select('id,title').lte('id', 2).order('id');
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toEqual([
      { id: 1, title: 'A Wizard of Earthsea' },
      { id: 2, title: 'The Left Hand of Darkness' },
    ]);
  });

  it('returns every column for *', async () => {
    const { data, error } = await rest.anon.from('genres').select('*').order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, name: 'fantasy' },
      { id: 2, name: 'science fiction' },
      { id: 3, name: 'satire' },
    ]);
  });

  it('renames columns with aliases and converts them with casts', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('name:title,pages::text,cost:price::text')
      .eq('id', 3);
    expect(error).toBeNull();
    expect(data).toEqual([{ name: 'Kindred', pages: '264', cost: '8.00' }]);
  });

  it('reads inside JSON with -> (as JSON) and ->> (as text)', async () => {
    const { data, error } = await rest.anon
      .from('authors')
      .select('name,meta->country,hugo:meta->awards->hugo,hugoText:meta->awards->>hugo')
      .in('id', [1, 3])
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Ursula', country: 'US', hugo: 5, hugoText: '5' },
      { name: 'Stanislaw', country: 'PL', hugo: null, hugoText: null },
    ]);
  });

  it('selects a computed field (a function of the row) like a column', async () => {
    const { data, error } = await rest.anon.from('books').select('id,title_upper').eq('id', 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, title_upper: 'A WIZARD OF EARTHSEA' }]);
  });

  it('reads a view', async () => {
    const { data, error } = await rest.anon.from('cheap_books').select('title').order('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ title: 'A Wizard of Earthsea' }, { title: 'Kindred' }]);
  });
});

describe('embedding related resources', () => {
  it('embeds a many-to-one parent as an object', async () => {
    const { data, error } = await rest.anon
      .from('reviews')
      .select('id,stars,books(title)')
      .order('id')
      .limit(2);
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, stars: 5, books: { title: 'A Wizard of Earthsea' } },
      { id: 2, stars: 4, books: { title: 'A Wizard of Earthsea' } },
    ]);
  });

  it('embeds one-to-many children as an array (empty when there are none)', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('id,reviews(id,stars)')
      .in('id', [1, 2])
      .order('id')
      .order('id', { referencedTable: 'reviews' });
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        id: 1,
        reviews: [
          { id: 1, stars: 5 },
          { id: 2, stars: 4 },
        ],
      },
      { id: 2, reviews: [] },
    ]);
  });

  it('embeds a one-to-one relationship as an object or null', async () => {
    const { data, error } = await rest.anon
      .from('authors')
      .select('name,author_bios(bio)')
      .in('id', [1, 4])
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Ursula', author_bios: { bio: 'Wrote Earthsea.' } },
      { name: 'Nobody', author_bios: null },
    ]);
  });

  it('embeds many-to-many through the junction table', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('title,genres(name)')
      .eq('id', 5)
      .order('name', { referencedTable: 'genres' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'The Cyberiad', genres: [{ name: 'satire' }, { name: 'science fiction' }] },
    ]);
  });

  it('disambiguates with a column hint and a foreign key name hint', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('title,writer:authors!author_id(name),editor:authors!books_editor_id_fkey(name)')
      .in('id', [1, 2])
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'A Wizard of Earthsea', writer: { name: 'Ursula' }, editor: { name: 'Octavia' } },
      { title: 'The Left Hand of Darkness', writer: { name: 'Ursula' }, editor: null },
    ]);
  });

  it('embeds a self reference: the parent by its column, the children by table and hint', async () => {
    const { data, error } = await rest.anon
      .from('employees')
      .select('name,manager:manager_id(name),reports:employees!manager_id(name)')
      .order('id')
      .order('id', { referencedTable: 'reports' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Ada', manager: null, reports: [{ name: 'Grace' }, { name: 'Linus' }] },
      { name: 'Grace', manager: { name: 'Ada' }, reports: [{ name: 'Ken' }] },
      { name: 'Linus', manager: { name: 'Ada' }, reports: [] },
      { name: 'Ken', manager: { name: 'Grace' }, reports: [] },
    ]);
  });

  it('spreads a to-one relationship into the parent row', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('title,...authors!author_id(author:name,country:meta->>country)')
      .in('id', [3, 4])
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Kindred', author: 'Octavia', country: 'US' },
      { title: 'Solaris', author: 'Stanislaw', country: 'PL' },
    ]);
  });

  it('filters, orders and limits an embedded resource without dropping parents', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('id,reviews(stars)')
      .in('id', [1, 2, 3])
      .gte('reviews.stars', 4)
      .order('id')
      .order('stars', { referencedTable: 'reviews', ascending: true })
      .limit(1, { referencedTable: 'reviews' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, reviews: [{ stars: 4 }] },
      { id: 2, reviews: [] },
      { id: 3, reviews: [{ stars: 5 }] },
    ]);
  });

  it('offsets an embedded resource with range on the referenced table', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('id,reviews(id)')
      .eq('id', 1)
      .order('id', { referencedTable: 'reviews' })
      .range(1, 1, { referencedTable: 'reviews' });
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, reviews: [{ id: 2 }] }]);
  });

  it('keeps only parents with matching children with !inner', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('title,reviews!inner(stars)')
      .eq('reviews.stars', 5)
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'A Wizard of Earthsea', reviews: [{ stars: 5 }] },
      { title: 'Kindred', reviews: [{ stars: 5 }] },
    ]);
  });

  it('filters parents on whether an embed is null', async () => {
    const { data, error } = await rest.anon
      .from('authors')
      .select('name,author_bios(bio)')
      .is('author_bios', null)
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Stanislaw', author_bios: null },
      { name: 'Nobody', author_bios: null },
    ]);
  });

  it('applies an or tree to an embedded resource', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('id,reviews(id)')
      .eq('id', 1)
      .or('id.eq.2,body.eq.Classic', { referencedTable: 'reviews' })
      .order('id', { referencedTable: 'reviews' });
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, reviews: [{ id: 1 }, { id: 2 }] }]);

    const none = await rest.anon
      .from('books')
      .select('id,reviews(id)')
      .eq('id', 1)
      .or('stars.lt.2,body.is.null', { referencedTable: 'reviews' });
    expect(none.error).toBeNull();
    expect(none.data).toEqual([{ id: 1, reviews: [] }]);
  });

  it('orders parents by a to-one related column', async () => {
    const { data, error } = await rest.anon
      .from('reviews')
      .select('id,books(title)')
      .order('books(title)', { ascending: false })
      .order('id');
    expect(error).toBeNull();
    expect(data?.map((row: { id: number }) => row.id)).toEqual([4, 3, 1, 2]);
  });
});

describe('filters', () => {
  async function bookIds(build: (query: Query) => Query): Promise<number[]> {
    const { data, error } = await build(rest.anon.from('books').select('id')).order('id');
    expect(error).toBeNull();
    return idsOf(data);
  }

  it('compares with eq, neq, gt, gte, lt and lte', async () => {
    expect(await bookIds((q) => q.eq('pages', 304))).toEqual([2]);
    expect(await bookIds((q) => q.neq('author_id', 1))).toEqual([3, 4, 5]);
    expect(await bookIds((q) => q.gt('price', 11))).toEqual([2]);
    expect(await bookIds((q) => q.gte('price', 11))).toEqual([2, 4]);
    expect(await bookIds((q) => q.lt('published', '1965-01-01'))).toEqual([4]);
    expect(await bookIds((q) => q.lte('pages', 204))).toEqual([1, 4]);
  });

  it('matches several columns at once with match()', async () => {
    expect(await bookIds((q) => q.match({ author_id: 1, pages: 304 }))).toEqual([2]);
  });

  it('matches patterns with like and ilike (% and * as wildcards)', async () => {
    expect(await bookIds((q) => q.like('title', '%Earth%'))).toEqual([1]);
    expect(await bookIds((q) => q.like('title', 'The*'))).toEqual([2, 5]);
    expect(await bookIds((q) => q.like('title', '%earth%'))).toEqual([]);
    expect(await bookIds((q) => q.ilike('title', '%DARK%'))).toEqual([2]);
  });

  it('matches regular expressions with match and imatch', async () => {
    expect(await bookIds((q) => q.filter('title', 'match', '^The'))).toEqual([2, 5]);
    expect(await bookIds((q) => q.filter('title', 'match', '^the'))).toEqual([]);
    expect(await bookIds((q) => q.filter('title', 'imatch', '^the'))).toEqual([2, 5]);
  });

  it('keeps rows whose value is in a list, quoting values that need it', async () => {
    expect(await bookIds((q) => q.in('id', [1, 3, 99]))).toEqual([1, 3]);
    expect(await bookIds((q) => q.in('title', ['Kindred', 'The Left Hand of Darkness']))).toEqual([
      2, 3,
    ]);
    const { data, error } = await rest.anon
      .from('books')
      .select('id')
      .in('title', ['a, b', 'x(y)', 'Solaris']);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 4 }]);
  });

  it('tests null, true and false with is, and difference with isdistinct', async () => {
    expect(await bookIds((q) => q.is('price', null))).toEqual([5]);
    expect(await bookIds((q) => q.is('editor_id', null).not('price', 'is', null))).toEqual([2, 4]);

    const reservations = async (column: string, value: boolean | null) => {
      const { data, error } = await rest.anon
        .from('reservations')
        .select('id')
        .is(column, value)
        .order('id');
      expect(error).toBeNull();
      return data?.map((row: { id: number }) => row.id);
    };
    expect(await reservations('confirmed', true)).toEqual([1, 4]);
    expect(await reservations('confirmed', false)).toEqual([2]);
    expect(await reservations('confirmed', null)).toEqual([3]);

    const { data, error } = await rest.anon
      .from('authors')
      .select('id')
      .filter('email', 'isdistinct', 'ursula@example.com')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }]);
  });

  it('compares arrays with cs, cd and ov', async () => {
    const authorIds = async (build: (query: Query) => Query) => {
      const { data, error } = await build(rest.anon.from('authors').select('id')).order('id');
      expect(error).toBeNull();
      return idsOf(data);
    };
    expect(await authorIds((q) => q.contains('tags', ['scifi']))).toEqual([1, 2, 3]);
    expect(await authorIds((q) => q.contains('tags', ['scifi', 'satire']))).toEqual([3]);
    expect(await authorIds((q) => q.containedBy('tags', ['scifi', 'fantasy']))).toEqual([1, 2, 4]);
    expect(await authorIds((q) => q.overlaps('tags', ['satire', 'fantasy']))).toEqual([1, 3]);
    expect(await authorIds((q) => q.contains('meta', { country: 'US' }))).toEqual([1, 2]);
    expect(await authorIds((q) => q.contains('meta', { awards: { hugo: 2 } }))).toEqual([2]);
  });

  it('compares ranges with cs, cd, ov, sl, sr, nxl, nxr and adj', async () => {
    const reservationIds = async (build: (query: Query) => Query) => {
      const { data, error } = await build(rest.anon.from('reservations').select('id')).order('id');
      expect(error).toBeNull();
      return idsOf(data);
    };
    expect(await reservationIds((q) => q.overlaps('during', '[4,6)'))).toEqual([1, 2, 3]);
    expect(await reservationIds((q) => q.contains('during', '[6,7]'))).toEqual([2, 3]);
    expect(await reservationIds((q) => q.containedBy('during', '[0,10)'))).toEqual([1, 2]);
    expect(await reservationIds((q) => q.rangeLt('during', '[10,15)'))).toEqual([1, 2]);
    expect(await reservationIds((q) => q.rangeGt('during', '[10,15)'))).toEqual([4]);
    expect(await reservationIds((q) => q.rangeGte('during', '[3,4)'))).toEqual([2, 3, 4]);
    expect(await reservationIds((q) => q.rangeLte('during', '[1,8)'))).toEqual([1]);
    expect(await reservationIds((q) => q.rangeAdjacent('during', '[9,10)'))).toEqual([2]);
  });

  it('searches text with fts, plfts, phfts and wfts, with and without a configuration', async () => {
    expect(await bookIds((q) => q.textSearch('search', 'planet'))).toEqual([2, 4]);
    expect(await bookIds((q) => q.textSearch('search', 'planet & ocean'))).toEqual([4]);
    expect(await bookIds((q) => q.textSearch('search', 'young wizard', { type: 'plain' }))).toEqual(
      [1],
    );
    expect(
      await bookIds((q) => q.textSearch('search', 'winter planet', { type: 'phrase' })),
    ).toEqual([2]);
    expect(
      await bookIds((q) => q.textSearch('search', 'planet -ocean', { type: 'websearch' })),
    ).toEqual([2]);
    expect(await bookIds((q) => q.textSearch('summary', 'robots', { config: 'english' }))).toEqual([
      5,
    ]);
    expect(await bookIds((q) => q.textSearch('summary', 'robots', { config: 'simple' }))).toEqual(
      [],
    );
  });

  it('negates any operator with not', async () => {
    expect(await bookIds((q) => q.not('id', 'in', '(1,2,3)'))).toEqual([4, 5]);
    expect(await bookIds((q) => q.not('title', 'like', '%The%'))).toEqual([1, 3, 4]);
    expect(await bookIds((q) => q.not('price', 'is', null).not('price', 'gte', 10))).toEqual([
      1, 3,
    ]);
    expect(await bookIds((q) => q.not('search', 'fts', 'planet'))).toEqual([1, 3, 5]);
  });

  it('combines conditions with nested or/and trees, and negated trees', async () => {
    expect(await bookIds((q) => q.or('id.eq.1,and(pages.gt.250,price.lt.10)'))).toEqual([1, 3]);
    expect(
      await bookIds((q) => q.or('and(author_id.eq.3,or(price.is.null,pages.lt.210)),id.eq.2')),
    ).toEqual([2, 4, 5]);
    expect(await bookIds((q) => q.or('title.ilike.*wizard*,title.in.(Kindred,Solaris)'))).toEqual([
      1, 3, 4,
    ]);
    const negated = await fetch(
      `${rest.restUrl}/books?select=id&not.and=(author_id.eq.1,pages.gt.200)&order=id`,
      { headers: rest.anonHeaders },
    );
    expect(negated.status).toBe(200);
    expect(await negated.json()).toEqual([{ id: 1 }, { id: 3 }, { id: 4 }, { id: 5 }]);
  });
});

describe('ordering', () => {
  async function prices(
    options: { ascending?: boolean; nullsFirst?: boolean } = {},
  ): Promise<(number | null)[]> {
    const { data, error } = await rest.anon.from('books').select('price').order('price', options);
    expect(error).toBeNull();
    return (data ?? []).map((row: { price: number | null }) => row.price);
  }

  it('sorts ascending with nulls last by default and nulls first on request', async () => {
    expect(await prices()).toEqual([8, 9.99, 11, 12.5, null]);
    expect(await prices({ nullsFirst: true })).toEqual([null, 8, 9.99, 11, 12.5]);
  });

  it('sorts descending with nulls first by default and nulls last on request', async () => {
    expect(await prices({ ascending: false })).toEqual([null, 12.5, 11, 9.99, 8]);
    expect(await prices({ ascending: false, nullsFirst: false })).toEqual([
      12.5,
      11,
      9.99,
      8,
      null,
    ]);
  });

  it('sorts by several columns in turn', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('author_id,pages')
      .order('author_id')
      .order('pages', { ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { author_id: 1, pages: 304 },
      { author_id: 1, pages: 183 },
      { author_id: 2, pages: 264 },
      { author_id: 3, pages: 295 },
      { author_id: 3, pages: 204 },
    ]);
  });
});

describe('pages and counts', () => {
  it('pages with limit, and with range (offset and limit)', async () => {
    const limited = await rest.anon.from('books').select('id').order('id').limit(2);
    expect(limited.data).toEqual([{ id: 1 }, { id: 2 }]);
    const ranged = await rest.anon.from('books').select('id').order('id').range(2, 3);
    expect(ranged.data).toEqual([{ id: 3 }, { id: 4 }]);
    expect(ranged.status).toBe(200);
    expect(ranged.count).toBeNull();
  });

  it('pages with embeds give the same rows, in order, as the whole result sliced', async () => {
    // Every window of every ordering, with to-one, to-many and many-to-many embeds and filters:
    // the page is chosen before the embeds are built, which must never change the answer.
    const shapes = [
      { table: 'books', select: 'id, title, author:authors!author_id(name), reviews(stars)' },
      { table: 'books', select: 'id, genres(name)', filter: ['pages', 'gt', '0'] as const },
      { table: 'book_genres', select: 'book_id, genre_id, books(title), genres(name)' },
      {
        table: 'authors',
        select: 'id, books!author_id(id)',
        filter: ['books', 'not.is', 'null'] as const,
      },
    ];
    for (const { table, select, filter } of shapes) {
      for (const ascending of [true, false]) {
        const orderBy = table === 'book_genres' ? ['genre_id', 'book_id'] : ['id'];
        const query = () => {
          let builder = rest.anon.from(table).select(select);
          if (filter) {
            builder =
              filter[1] === 'not.is'
                ? builder.not(filter[0], 'is', null)
                : builder.filter(filter[0], filter[1], filter[2]);
          }
          for (const column of orderBy) builder = builder.order(column, { ascending });
          return builder;
        };
        const whole = await query();
        expect(whole.error).toBeNull();
        const all = whole.data as unknown[];
        expect(all.length).toBeGreaterThan(1);
        for (let from = 0; from < all.length; from += 1) {
          const page = await query().range(from, from + 1);
          expect(page.error).toBeNull();
          expect(page.data, `${table} ${select} from ${from}`).toEqual(all.slice(from, from + 2));
        }
      }
    }
  });

  it('counts exactly: 206 with Content-Range for a partial page, 200 for all rows', async () => {
    const partial = await rest.anon
      .from('books')
      .select('id', { count: 'exact' })
      .order('id')
      .range(1, 2);
    expect(partial.error).toBeNull();
    expect(partial.status).toBe(206);
    expect(partial.count).toBe(5);
    expect(partial.data).toEqual([{ id: 2 }, { id: 3 }]);

    const whole = await rest.anon.from('books').select('id', { count: 'exact' });
    expect(whole.status).toBe(200);
    expect(whole.count).toBe(5);

    const raw = await fetch(`${rest.restUrl}/books?select=id&order=id&offset=1&limit=2`, {
      headers: { ...rest.anonHeaders, Prefer: 'count=exact' },
    });
    expect(raw.status).toBe(206);
    expect(raw.headers.get('content-range')).toBe('1-2/5');
    expect(raw.headers.get('preference-applied')).toBe('count=exact');
  });

  it('counts with a filter, and reports */0 for no rows', async () => {
    const filtered = await rest.anon
      .from('books')
      .select('id', { count: 'exact' })
      .eq('author_id', 1);
    expect(filtered.count).toBe(2);
    expect(filtered.status).toBe(200);

    const raw = await fetch(`${rest.restUrl}/books?id=eq.99`, {
      headers: { ...rest.anonHeaders, Prefer: 'count=exact' },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-range')).toBe('*/0');
    expect(await raw.json()).toEqual([]);
  });

  it('gives planned and estimated counts', async () => {
    const planned = await rest.anon.from('books').select('id', { count: 'planned' });
    expect(planned.error).toBeNull();
    expect(typeof planned.count).toBe('number');
    expect(planned.count).toBeGreaterThan(0);
    expect(planned.data).toHaveLength(5);

    const estimated = await rest.anon.from('books').select('id', { count: 'estimated' });
    expect(estimated.error).toBeNull();
    expect(estimated.count).toBe(5);
  });

  it('answers 416 PGRST103 for an offset past the end', async () => {
    const result = await rest.anon
      .from('books')
      .select('id', { count: 'exact' })
      .order('id')
      .range(10, 12);
    expectRestError(result, 416, {
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'An offset of 10 was requested, but there are only 5 rows.',
      hint: null,
    });

    const raw = await fetch(`${rest.restUrl}/books?offset=10`, {
      headers: { ...rest.anonHeaders, Prefer: 'count=exact' },
    });
    expect(raw.status).toBe(416);
    expect(raw.headers.get('content-range')).toBe('*/5');
  });

  it('honours the Range header, within limit and offset', async () => {
    const plain = await fetch(`${rest.restUrl}/books?select=id&order=id`, {
      headers: { ...rest.anonHeaders, Range: '1-2' },
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-range')).toBe('1-2/*');
    expect(await plain.json()).toEqual([{ id: 2 }, { id: 3 }]);

    const counted = await fetch(`${rest.restUrl}/books?select=id&order=id`, {
      headers: { ...rest.anonHeaders, Range: '3-', 'Range-Unit': 'items', Prefer: 'count=exact' },
    });
    expect(counted.status).toBe(206);
    expect(counted.headers.get('content-range')).toBe('3-4/5');
    expect(await counted.json()).toEqual([{ id: 4 }, { id: 5 }]);

    const inverted = await fetch(`${rest.restUrl}/books`, {
      headers: { ...rest.anonHeaders, Range: '3-1' },
    });
    expect(inverted.status).toBe(416);
    expect(((await inverted.json()) as { code: string }).code).toBe('PGRST103');
  });

  it('answers HEAD with headers and a count but no body', async () => {
    const result = await rest.anon
      .from('books')
      .select('*', { count: 'exact', head: true })
      .gt('pages', 250);
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.count).toBe(3);

    const raw = await fetch(`${rest.restUrl}/books?order=id&limit=1`, {
      method: 'HEAD',
      headers: { ...rest.anonHeaders, Prefer: 'count=exact' },
    });
    expect(raw.status).toBe(206);
    expect(raw.headers.get('content-range')).toBe('0-0/5');
    expect(await raw.text()).toBe('');
  });
});

describe('response formats', () => {
  it('returns one object with single()', async () => {
    const result = await rest.anon.from('books').select('id,title').eq('id', 4).single();
    expect(result.error).toBeNull();
    expect(result.status).toBe(200);
    expect(result.data).toEqual({ id: 4, title: 'Solaris' });
  });

  it('refuses single() with 406 PGRST116 for no rows and for several', async () => {
    const none = await rest.anon.from('books').select('id').eq('id', 99).single();
    expectRestError(none, 406, {
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 0 rows',
      hint: null,
    });
    const many = await rest.anon.from('books').select('id').eq('author_id', 1).single();
    expectRestError(many, 406, {
      code: 'PGRST116',
      details: 'The result contains 2 rows',
    });
  });

  it('returns an object or null with maybeSingle(), and refuses several rows', async () => {
    const one = await rest.anon.from('genres').select('name').eq('id', 2).maybeSingle();
    expect(one.error).toBeNull();
    expect(one.data).toEqual({ name: 'science fiction' });

    const none = await rest.anon.from('genres').select('name').eq('id', 99).maybeSingle();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();

    const many = await rest.anon.from('genres').select('name').maybeSingle();
    expect(many.data).toBeNull();
    expect(many.status).toBe(406);
    expect(many.error).toMatchObject({
      code: 'PGRST116',
      details: 'Results contain 3 rows, application/vnd.pgrst.object+json requires 1 row',
    });
  });

  it('returns CSV with csv()', async () => {
    const { data, error, status } = await rest.anon
      .from('books')
      .select('id,title,price')
      .lte('id', 2)
      .order('id')
      .csv();
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toBe(
      'id,title,price\n1,"A Wizard of Earthsea",9.99\n2,"The Left Hand of Darkness",12.50',
    );

    const raw = await fetch(`${rest.restUrl}/genres?select=name&id=eq.1`, {
      headers: { ...rest.anonHeaders, Accept: 'text/csv' },
    });
    expect(raw.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await raw.text()).toBe('name\nfantasy');
  });

  it('strips null values with stripNulls()', async () => {
    const { data, error } = await rest.anon
      .from('authors')
      .select('name,email')
      .eq('id', 3)
      .stripNulls();
    expect(error).toBeNull();
    expect(data).toEqual([{ name: 'Stanislaw' }]);
  });
});

describe('less common grammar', () => {
  it('applies quantified operators: like(any), ilike(all) and eq(any)', async () => {
    const anyOf = await rest.anon
      .from('books')
      .select('id')
      .likeAnyOf('title', ['%Earth%', '%Dark%'])
      .order('id');
    expect(anyOf.error).toBeNull();
    expect(anyOf.data).toEqual([{ id: 1 }, { id: 2 }]);

    const allOf = await rest.anon
      .from('books')
      .select('id')
      .ilikeAllOf('title', ['%THE%', '%of%'])
      .order('id');
    expect(allOf.error).toBeNull();
    expect(allOf.data).toEqual([{ id: 2 }]);

    const eqAny = await rest.anon
      .from('books')
      .select('id')
      .filter('id', 'eq(any)', '{2,4,9}')
      .order('id');
    expect(eqAny.error).toBeNull();
    expect(eqAny.data).toEqual([{ id: 2 }, { id: 4 }]);
  });

  it('filters and orders on JSON paths', async () => {
    const text = await rest.anon.from('authors').select('name').eq('meta->>country', 'PL');
    expect(text.error).toBeNull();
    expect(text.data).toEqual([{ name: 'Stanislaw' }]);

    const json = await rest.anon.from('authors').select('name').gt('meta->awards->hugo', 3);
    expect(json.error).toBeNull();
    expect(json.data).toEqual([{ name: 'Ursula' }]);

    const ordered = await rest.anon
      .from('authors')
      .select('name')
      .not('meta->awards', 'is', null)
      .order('meta->awards->hugo', { ascending: true });
    expect(ordered.error).toBeNull();
    expect(ordered.data).toEqual([{ name: 'Octavia' }, { name: 'Ursula' }]);
  });

  it('matches nothing for an empty in list', async () => {
    const { data, error } = await rest.anon.from('books').select('id').in('id', []);
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });

  it('keeps only parents whose embed is present with not.is.null', async () => {
    const { data, error } = await rest.anon
      .from('authors')
      .select('name,author_bios(bio)')
      .not('author_bios', 'is', null)
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Ursula', author_bios: { bio: 'Wrote Earthsea.' } },
      { name: 'Octavia', author_bios: { bio: 'Wrote Kindred.' } },
    ]);
  });

  it('counts only the parents kept by an !inner embed', async () => {
    const { data, count, error } = await rest.anon
      .from('books')
      .select('id,genres!inner(name)', { count: 'exact' })
      .eq('genres.name', 'satire');
    expect(error).toBeNull();
    expect(count).toBe(1);
    expect(data).toEqual([{ id: 5, genres: [{ name: 'satire' }] }]);
  });

  it('embeds with * inside and !left explicitly', async () => {
    const { data, error } = await rest.anon
      .from('reviews')
      .select('id,books!left(*)')
      .eq('id', 4)
      .single();
    expect(error).toBeNull();
    expect(data).toMatchObject({
      id: 4,
      books: { id: 4, author_id: 3, title: 'Solaris', price: 11, pages: 204 },
    });
  });

  it('answers limit(0) with no rows, and 206 with the total when counting', async () => {
    const response = await fetch(`${rest.restUrl}/books?limit=0`, {
      headers: { ...rest.anonHeaders, Prefer: 'count=exact' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('*/5');
    expect(await response.json()).toEqual([]);
  });

  it('refuses ordering by a to-many embed with 400 PGRST118', async () => {
    const result = await rest.anon
      .from('books')
      .select('id,reviews(stars)')
      .order('reviews(stars)');
    expectRestError(result, 400, {
      code: 'PGRST118',
      message: "A related order on 'reviews' is not possible",
      details: "'books' and 'reviews' do not form a many-to-one or one-to-one relationship",
    });
  });

  it('refuses aggregates, which are not enabled, with 400 PGRST123', async () => {
    const result = await rest.anon.from('books').select('count()');
    expectRestError(result, 400, {
      code: 'PGRST123',
      message: 'Use of aggregate functions is not allowed',
    });
  });

  it('passes array arguments to a GET call as {a,b}', async () => {
    const result = await rest.anon.rpc('sum_all', { xs: [1, 2, 39] }, { get: true });
    expect(result.error).toBeNull();
    expect(result.data).toBe(42);
  });
});

describe('edge cases', () => {
  it('filters an !inner embed by its alias', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('id,writer:authors!author_id!inner(name)')
      .eq('writer.name', 'Octavia');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 3, writer: { name: 'Octavia' } }]);
  });

  it('reads negations, quoted values and full-text search inside logic trees', async () => {
    const negated = await rest.anon
      .from('books')
      .select('id')
      .or('id.not.in.(1,2,3),pages.eq.183')
      .order('id');
    expect(negated.data).toEqual([{ id: 1 }, { id: 4 }, { id: 5 }]);

    const quoted = await rest.anon
      .from('books')
      .select('id')
      .or('title.in.("a, b",Kindred),title.eq."The Cyberiad"')
      .order('id');
    expect(quoted.error).toBeNull();
    expect(quoted.data).toEqual([{ id: 3 }, { id: 5 }]);

    const fts = await rest.anon
      .from('books')
      .select('id')
      .or('search.fts(english).ocean,id.eq.1')
      .order('id');
    expect(fts.error).toBeNull();
    expect(fts.data).toEqual([{ id: 1 }, { id: 4 }]);
  });

  it('tests is.unknown and is.not_null', async () => {
    const unknown = await fetch(`${rest.restUrl}/reservations?select=id&confirmed=is.unknown`, {
      headers: rest.anonHeaders,
    });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual([{ id: 3 }]);

    const notNull = await fetch(`${rest.restUrl}/authors?select=id&email=is.not_null&order=id`, {
      headers: rest.anonHeaders,
    });
    expect(notNull.status).toBe(200);
    expect(await notNull.json()).toEqual([{ id: 1 }, { id: 2 }, { id: 4 }]);
  });

  it('compares timestamps given with a + offset', async () => {
    const { data, error } = await rest.anon
      .from('authors')
      .select('id', { count: 'exact', head: true })
      .eq('created_at', '2026-01-01T02:00:00+02:00');
    expect(error).toBeNull();
    expect(data).toBeNull();
    const counted = await rest.anon
      .from('authors')
      .select('id', { count: 'exact' })
      .eq('created_at', '2026-01-01T02:00:00+02:00');
    expect(counted.count).toBe(4);
  });

  it('embeds through a view using the relationships of its base table', async () => {
    const { data, error } = await rest.anon
      .from('cheap_books')
      .select('title,authors(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'A Wizard of Earthsea', authors: { name: 'Ursula' } },
      { title: 'Kindred', authors: { name: 'Octavia' } },
    ]);
  });

  it('embeds views with renamed columns, views over views, and views from tables', async () => {
    const renamed = await rest.anon
      .from('book_cards')
      .select('heading,authors(name)')
      .eq('book_id', 3);
    expect(renamed.error).toBeNull();
    expect(renamed.data).toEqual([{ heading: 'Kindred', authors: { name: 'Octavia' } }]);

    const nested = await rest.anon
      .from('card_titles')
      .select('heading,reviews(stars)')
      .eq('book_id', 1)
      .order('stars', { referencedTable: 'reviews' });
    expect(nested.error).toBeNull();
    expect(nested.data).toEqual([
      { heading: 'A Wizard of Earthsea', reviews: [{ stars: 4 }, { stars: 5 }] },
    ]);

    const toView = await rest.anon
      .from('reviews')
      .select('id,card_titles(heading)')
      .eq('id', 3)
      .single();
    expect(toView.error).toBeNull();
    expect(toView.data).toEqual({ id: 3, card_titles: { heading: 'Kindred' } });

    const fromTable = await rest.anon
      .from('authors')
      .select('name,cheap_books(title)')
      .eq('id', 1)
      .single();
    expect(fromTable.error).toBeNull();
    expect(fromTable.data).toEqual({
      name: 'Ursula',
      cheap_books: [{ title: 'A Wizard of Earthsea' }],
    });
  });

  it('orders and filters by a computed field', async () => {
    const ordered = await rest.anon
      .from('books')
      .select('id')
      .order('title_upper', { ascending: false })
      .limit(2);
    expect(ordered.error).toBeNull();
    expect(ordered.data).toEqual([{ id: 2 }, { id: 5 }]);

    const filtered = await rest.anon.from('books').select('id').like('title_upper', '%WIZARD%');
    expect(filtered.error).toBeNull();
    expect(filtered.data).toEqual([{ id: 1 }]);
  });

  it('combines a column filter and an embed being present in one or tree', async () => {
    const response = await fetch(
      `${rest.restUrl}/books?select=id,reviews(stars)&or=(id.eq.2,reviews.not.is.null)&order=id&reviews.order=stars`,
      { headers: rest.anonHeaders },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { id: 1, reviews: [{ stars: 4 }, { stars: 5 }] },
      { id: 2, reviews: [] },
      { id: 3, reviews: [{ stars: 5 }] },
      { id: 4, reviews: [{ stars: 3 }] },
    ]);
  });

  it('returns one object from an RPC scalar with the object media type', async () => {
    const response = await fetch(`${rest.restUrl}/rpc/first_book?select=title`, {
      headers: { ...rest.anonHeaders, Accept: 'application/vnd.pgrst.object+json' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.pgrst.object+json; charset=utf-8',
    );
    expect(await response.json()).toEqual({ title: 'A Wizard of Earthsea' });
  });

  it('answers HEAD without a count with an open Content-Range', async () => {
    const response = await fetch(`${rest.restUrl}/genres`, {
      method: 'HEAD',
      headers: rest.anonHeaders,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-range')).toBe('0-2/*');
  });

  it('honours the Range header on an RPC result', async () => {
    const response = await fetch(`${rest.restUrl}/rpc/numbers?n=6`, {
      headers: { ...rest.anonHeaders, Range: '2-3', Prefer: 'count=exact' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('2-3/6');
    expect(await response.json()).toEqual([3, 4]);
  });

  it('casts selected columns to other types', async () => {
    const { data, error } = await rest.anon
      .from('books')
      .select('price::int,published::text,id::text')
      .eq('id', 2);
    expect(error).toBeNull();
    expect(data).toEqual([{ price: 13, published: '1969-03-01', id: '2' }]);
  });

  it('selects array and range columns as JSON', async () => {
    const { data, error } = await rest.anon
      .from('reservations')
      .select('during,confirmed')
      .eq('id', 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ during: '[1,5)', confirmed: true }]);
    const tags = await rest.anon.from('authors').select('tags').eq('id', 1).single();
    expect(tags.data).toEqual({ tags: ['scifi', 'fantasy'] });
  });
});
