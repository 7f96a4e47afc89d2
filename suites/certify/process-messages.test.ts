import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/process-protocol/lines.ts';
import { parseProgramLine, requestParts } from '../../src/process-protocol/protocol.ts';

// The pure halves of the process protocol: what counts as a valid program message, and how
// stdout bytes become lines. (No cluster: the behaviour end to end is process-protocol.test.ts.)

describe('parseProgramLine', () => {
  it('accepts the three program messages, keeping nil and nested results as sent', () => {
    expect(
      parseProgramLine(
        '{"type":"hello","protocol":"chaoslua-process/1","name":"n","version":"1","patterns":["lock"],"extra":1}',
      ),
    ).toEqual({
      message: { type: 'hello', protocol: 'chaoslua-process/1', name: 'n', version: '1', patterns: ['lock'] },
    });
    expect(parseProgramLine('{"type":"refuse","reason":"no"}')).toEqual({ message: { type: 'refuse', reason: 'no' } });
    expect(parseProgramLine('{"type":"response","id":3,"ok":true,"result":null}')).toEqual({
      message: { type: 'response', id: 3, ok: true, result: null },
    });
    expect(parseProgramLine('{"type":"response","id":4,"ok":true,"result":["hit","pending","f","",""]}')).toEqual({
      message: { type: 'response', id: 4, ok: true, result: ['hit', 'pending', 'f', '', ''] },
    });
    expect(parseProgramLine('{"type":"response","id":5,"ok":false,"error":"NOSCRIPT x"}')).toEqual({
      message: { type: 'response', id: 5, ok: false, error: 'NOSCRIPT x' },
    });
  });

  it.each([
    ['INFO connecting to redis', /^not JSON: "INFO connecting to redis"$/],
    ['[1,2]', /^not a JSON object/],
    ['{"type":"hello","protocol":"chaoslua-process/1","name":"n"}', /^hello needs protocol, name, version/],
    ['{"type":"response","id":"7","ok":true,"result":1}', /^response without an integer id/],
    ['{"type":"response","id":7,"ok":true}', /^response 7 has ok:true but no result/],
    ['{"type":"response","id":7,"ok":false}', /^response 7 has ok:false but no error text/],
    ['{"type":"response","id":7,"ok":"yes","result":1}', /^response 7 needs ok: true or false/],
    ['{"type":"log","text":"hi"}', /^unknown message type "log"/],
  ])('rejects %s', (line, problem) => {
    const parsed = parseProgramLine(line);
    expect('problem' in parsed && parsed.problem).toMatch(problem);
  });

  it('cuts a long garbage line in the finding', () => {
    const parsed = parseProgramLine('x'.repeat(500));
    expect('problem' in parsed && parsed.problem.length).toBeLessThan(120);
  });
});

describe('requestParts', () => {
  it('sends every field of the model input but op, unchanged (edge values included)', () => {
    expect(requestParts({ op: 'renew', owner: '', leaseMs: -5 })).toEqual({
      op: 'renew',
      args: { owner: '', leaseMs: -5 },
    });
  });
});

describe('LineSplitter', () => {
  it('splits on LF across chunks, drops a CR before it, and keeps multi-byte characters whole', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter(
      (l) => lines.push(l),
      () => lines.push('OVERFLOW'),
    );
    const bytes = Buffer.from('{"a":"é"}\r\n{"b":1}\n{"c"');
    // Split inside the two-byte é.
    const cut = bytes.indexOf(0xa9);
    splitter.push(bytes.subarray(0, cut));
    splitter.push(bytes.subarray(cut));
    expect(lines).toEqual(['{"a":"é"}', '{"b":1}']);
    expect(splitter.rest()).toBe('{"c"');
  });

  it('reports a line that grows past the bound once, instead of buffering it', () => {
    const overflows: number[] = [];
    const splitter = new LineSplitter(
      () => undefined,
      (n) => overflows.push(n),
      10,
    );
    splitter.push(Buffer.from('x'.repeat(8)));
    splitter.push(Buffer.from('x'.repeat(8)));
    splitter.push(Buffer.from('x'.repeat(8) + '\n'));
    expect(overflows).toEqual([16]);
  });
});
