import { describe, expect, it } from 'vitest';
import {
  decodeBinary,
  decodeText,
  encodeBroadcastBinary,
  encodeText,
  FrameError,
  reply,
} from './protocol';

/** Phoenix frames in both serializations (contract §5.2), byte for byte. */

/** A kind-3 frame as realtime-js 2.119 builds it (its serializer's layout). */
function userBroadcastPush(fields: {
  joinRef: string;
  ref: string;
  topic: string;
  event: string;
  meta?: string;
  encoding: 0 | 1;
  payload: Buffer;
}): Buffer {
  const parts = [fields.joinRef, fields.ref, fields.topic, fields.event, fields.meta ?? ''].map(
    (text) => Buffer.from(text, 'utf8'),
  );
  return Buffer.concat([
    Buffer.from([3, ...parts.map((part) => part.length), fields.encoding]),
    ...parts,
    fields.payload,
  ]);
}

describe('text frames', () => {
  it('reads vsn 2.0.0 arrays and vsn 1.0.0 objects', () => {
    expect(decodeText('["1","2","realtime:a","phx_join",{"x":1}]', '2.0.0')).toEqual({
      joinRef: '1',
      ref: '2',
      topic: 'realtime:a',
      event: 'phx_join',
      payload: { x: 1 },
    });
    expect(
      decodeText(
        '{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"7","join_ref":null}',
        '1.0.0',
      ),
    ).toEqual({ joinRef: null, ref: '7', topic: 'phoenix', event: 'heartbeat', payload: {} });
  });

  it('refuses anything else with a FrameError', () => {
    const bad: [string, '1.0.0' | '2.0.0'][] = [
      ['', '2.0.0'],
      ['{', '2.0.0'],
      ['[1,2,3]', '2.0.0'],
      ['{"topic":"t","event":"e"}', '2.0.0'],
      ['[null,null,"","e",{}]', '2.0.0'],
      ['[null,null,"t",5,{}]', '2.0.0'],
      ['[null,{},"t","e",{}]', '2.0.0'],
      ['["1","2","t","e",{}]', '1.0.0'],
      ['"text"', '1.0.0'],
    ];
    for (const [text, version] of bad) {
      expect(() => decodeText(text, version), text).toThrow(FrameError);
    }
  });

  it('writes replies in each version', () => {
    const frame = reply({ joinRef: '1', ref: '3', topic: 'realtime:a' }, 'ok', {
      postgres_changes: [],
    });
    expect(JSON.parse(encodeText(frame, '2.0.0'))).toEqual([
      '1',
      '3',
      'realtime:a',
      'phx_reply',
      { status: 'ok', response: { postgres_changes: [] } },
    ]);
    expect(JSON.parse(encodeText(frame, '1.0.0'))).toEqual({
      topic: 'realtime:a',
      event: 'phx_reply',
      payload: { status: 'ok', response: { postgres_changes: [] } },
      ref: '3',
      join_ref: '1',
    });
  });
});

describe('binary frames', () => {
  it('reads a JSON user broadcast push with metadata, and a binary one', () => {
    const json = decodeBinary(
      userBroadcastPush({
        joinRef: '4',
        ref: '9',
        topic: 'realtime:héllo',
        event: 'ping',
        meta: '{"persist":true}',
        encoding: 1,
        payload: Buffer.from('{"n":1}'),
      }),
      '2.0.0',
    );
    expect(json).toMatchObject({
      joinRef: '4',
      ref: '9',
      topic: 'realtime:héllo',
      event: 'broadcast',
    });
    expect(json.payload).toEqual({
      event: 'ping',
      body: { kind: 'json', value: { n: 1 } },
      meta: { persist: true },
    });

    const bytes = decodeBinary(
      userBroadcastPush({
        joinRef: '',
        ref: '',
        topic: 'realtime:b',
        event: 'raw',
        encoding: 0,
        payload: Buffer.from([0, 255]),
      }),
      '2.0.0',
    );
    expect(bytes.joinRef).toBeNull();
    expect(bytes.payload.body).toEqual({ kind: 'binary', value: Buffer.from([0, 255]) });
  });

  it('refuses unknown kinds, short headers, bad JSON and vsn 1.0.0', () => {
    const valid = userBroadcastPush({
      joinRef: '1',
      ref: '2',
      topic: 'realtime:t',
      event: 'e',
      encoding: 1,
      payload: Buffer.from('{}'),
    });
    const cases = [
      Buffer.from([4, 0, 0, 0, 0, 0, 1]),
      Buffer.from([3, 0, 0]),
      Buffer.from([3, 50, 0, 0, 0, 0, 1, 1]),
      Buffer.from([3, 0, 0, 1, 1, 0, 7, 116, 101]),
      userBroadcastPush({
        joinRef: '1',
        ref: '2',
        topic: 'realtime:t',
        event: 'e',
        encoding: 1,
        payload: Buffer.from('{oops'),
      }),
      userBroadcastPush({
        joinRef: '1',
        ref: '2',
        topic: 'realtime:t',
        event: '',
        encoding: 1,
        payload: Buffer.from('{}'),
      }),
      userBroadcastPush({
        joinRef: '1',
        ref: '2',
        topic: 'realtime:t',
        event: 'e',
        meta: '[1]',
        encoding: 1,
        payload: Buffer.from('{}'),
      }),
      // Short as sent, longer than 255 bytes once written back out (1e20 → 100000000000000000000).
      userBroadcastPush({
        joinRef: '1',
        ref: '2',
        topic: 'realtime:t',
        event: 'e',
        meta: `{"a":[${Array.from({ length: 20 }, () => '1e20').join(',')}]}`,
        encoding: 1,
        payload: Buffer.from('{}'),
      }),
    ];
    for (const frame of cases) expect(() => decodeBinary(frame, '2.0.0')).toThrow(FrameError);
    expect(() => decodeBinary(valid, '1.0.0')).toThrow(FrameError);
  });

  it('writes kind-4 broadcasts that the client can read back', () => {
    const frame = encodeBroadcastBinary('realtime:t', {
      event: 'raw',
      body: { kind: 'binary', value: Buffer.from([1, 2, 3]) },
      meta: { id: 'x' },
    });
    const meta = Buffer.from('{"id":"x"}');
    expect([...frame.subarray(0, 5)]).toEqual([4, 10, 3, meta.length, 0]);
    expect(frame.subarray(5, 15).toString()).toBe('realtime:t');
    expect(frame.subarray(15, 18).toString()).toBe('raw');
    expect(frame.subarray(18, 18 + meta.length).toString()).toBe('{"id":"x"}');
    expect([...frame.subarray(18 + meta.length)]).toEqual([1, 2, 3]);

    const json = encodeBroadcastBinary('realtime:t', {
      event: 'e',
      body: { kind: 'json', value: { a: 1 } },
    });
    expect(json[4]).toBe(1);
    expect(json.subarray(5 + 10 + 1).toString()).toBe('{"a":1}');
    expect(() =>
      encodeBroadcastBinary('x'.repeat(300), { event: 'e', body: { kind: 'json', value: null } }),
    ).toThrow(FrameError);
  });
});
