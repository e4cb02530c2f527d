import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../testing/root-dir';
import { bundleFunction } from './bundle-function.mjs';

/**
 * How a Deno-style function becomes a Node module: the import map applies,
 * `npm:` names the package in node_modules (left external), `Deno` is the
 * injected shim's, and imports Node cannot serve are refused by name.
 */

const SHIM = path.join(ROOT_DIR, 'server', 'functions', 'deno-shim.ts');
let dir: string;

async function write(file: string, text: string): Promise<string> {
  const target = path.join(dir, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, text);
  return target;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cervana-bundle-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('bundleFunction', () => {
  it('applies deno.json, keeps packages external and injects the Deno shim', async () => {
    await write('_shared/greet.ts', 'export const greet = (name: string) => `hello ${name}`;\n');
    await write(
      'hello/deno.json',
      JSON.stringify({
        imports: {
          '@supabase/supabase-js': 'npm:@supabase/supabase-js@2.119.0',
          'shared/': '../_shared/',
          'zod-mini': 'npm:zod@4/mini',
        },
      }),
    );
    const entry = await write(
      'hello/index.ts',
      [
        "import { createClient } from '@supabase/supabase-js';",
        "import { z } from 'zod-mini';",
        "import { greet } from 'shared/greet.ts';",
        'Deno.serve(() => new Response(greet(String(typeof createClient) + typeof z)));',
        '',
      ].join('\n'),
    );
    const { code, inputs } = await bundleFunction({ entry, shim: SHIM, sourcemap: false });
    expect(code).toMatch(/from "@supabase\/supabase-js"/);
    expect(code).toMatch(/from "zod\/mini"/);
    expect(code).toContain('hello ${name}');
    expect(code).toContain('Symbol.for("cervana.edge-functions.runtime")');
    // No global Deno is read: the bundle declares its own.
    expect(code).toMatch(/var Deno = /);
    expect(inputs).toEqual(
      expect.arrayContaining([entry, path.join(dir, '_shared', 'greet.ts'), SHIM]),
    );
  });

  it('refuses jsr: and URL imports, naming them', async () => {
    const jsr = await write(
      'jsr/index.ts',
      "import { Hono } from 'jsr:@hono/hono';\nconsole.log(Hono);\n",
    );
    await expect(bundleFunction({ entry: jsr, shim: SHIM })).rejects.toThrow(
      /"jsr:@hono\/hono" cannot be loaded on Cervana's server/,
    );
    await write(
      'mapped/deno.json',
      JSON.stringify({ imports: { std: 'https://deno.land/std/mod.ts' } }),
    );
    const mapped = await write(
      'mapped/index.ts',
      "import * as std from 'std';\nconsole.log(std);\n",
    );
    await expect(bundleFunction({ entry: mapped, shim: SHIM })).rejects.toThrow(
      /"std" cannot be loaded/,
    );
  });
});
