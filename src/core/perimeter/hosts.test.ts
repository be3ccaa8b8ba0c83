import { describe, expect, it } from 'vitest';
import { hostName, isLoopbackAddress, isLoopbackBind, isLoopbackName } from './hosts.js';

describe('hosts', () => {
  it.each([
    ['127.0.0.1:8765', '127.0.0.1'],
    ['LocalHost:80', 'localhost'],
    ['[::1]:8765', '[::1]'],
    ['[::1]', '[::1]'],
    ['jig.example', 'jig.example'],
    [' jig.example:1 ', 'jig.example'],
    ['::1', '::1'],
    ['', ''],
    [undefined, ''],
  ])('hostName(%j) = %j', (given, want) => {
    expect(hostName(given)).toBe(want);
  });

  it('knows the three loopback names and nothing else', () => {
    expect(['localhost', '127.0.0.1', '[::1]'].map(isLoopbackName)).toEqual([true, true, true]);
    expect(['127.0.0.2', '::1', 'localhost.', 'jig.example', ''].map(isLoopbackName)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('tells loopback binds and peers', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'].map(isLoopbackBind)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['0.0.0.0', '::', '192.0.2.2', 'jig.example'].map(isLoopbackBind)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.9.9.9'].map(isLoopbackAddress)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['192.0.2.7', '::ffff:192.0.2.7', 'fd00::1', '', '::'].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
