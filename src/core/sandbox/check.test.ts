import { describe, expect, it } from 'vitest';
import { checkSandbox, kindOf } from './check.js';

describe('checkSandbox', () => {
  it('a kind that cannot enforce resources is a problem at `resources`', () => {
    expect(checkSandbox({ kind: 'bubblewrap', resources: { pids: 100 } })).toEqual([
      {
        path: ['resources'],
        message:
          'a bubblewrap sandbox cannot enforce resources (cpu, memory, pids); remove them or use kind: podman',
        mode: 'key',
      },
    ]);
    expect(checkSandbox({ kind: 'podman', image: 'x', resources: { pids: 100 } })).toEqual([]);
  });

  it('network and unrestricted_network together are a problem at the second', () => {
    expect(checkSandbox({ network: { allow: ['a.test'] }, unrestricted_network: false })).toEqual([
      {
        path: ['unrestricted_network'],
        message: 'set `network` (egress lists) or `unrestricted_network`, not both',
        mode: 'key',
      },
    ]);
  });

  it('each egress entry that names no host is a problem at its own place', () => {
    expect(
      checkSandbox({
        network: { allow: ['ok.test', 'http://x'], runtime: { deny: ['a b'] } },
        credentials: [{ env: 'K', hosts: ['api.test', 'x:0'], header: 'x-api-key' }],
      }).map((p) => p.path),
    ).toEqual([
      ['network', 'allow', 1],
      ['network', 'runtime', 'deny', 0],
      ['credentials', 0, 'hosts', 1],
    ]);
  });

  it('a container kind needs an image, and an image needs a container kind', () => {
    expect(checkSandbox({ kind: 'podman' })).toEqual([
      {
        path: ['kind'],
        message:
          'a podman sandbox runs an image: name it with `image` (Jig never pulls one; it must be there)',
        mode: 'value',
      },
    ]);
    expect(checkSandbox({ kind: 'bubblewrap', image: 'node:20' })).toEqual([
      {
        path: ['image'],
        message: 'a bubblewrap sandbox runs no image; remove it or use kind: podman',
        mode: 'key',
      },
    ]);
    expect(checkSandbox({ image: 'node:20' })).toEqual([]);
  });

  it('memory and cpu must be amounts the runtimes read', () => {
    expect(
      checkSandbox({ kind: 'podman', image: 'x', resources: { memory: '4 GB', cpu: 'two', pids: 64 } }),
    ).toEqual([
      {
        path: ['resources', 'memory'],
        message: '`4 GB` is not an amount of memory: write a number with b, k, m or g (e.g. 512m, 4g)',
        mode: 'value',
      },
      {
        path: ['resources', 'cpu'],
        message: '`two` is not a number of CPUs: write a positive number (e.g. 1.5)',
        mode: 'value',
      },
    ]);
    expect(checkSandbox({ kind: 'docker', image: 'x', resources: { memory: '512m', cpu: '1.5' } })).toEqual(
      [],
    );
  });

  it('the kind defaults to bubblewrap, or docker when an image is named', () => {
    expect(kindOf({})).toBe('bubblewrap');
    expect(kindOf({ image: 'node:20' })).toBe('docker');
    expect(kindOf({ kind: 'podman', image: 'node:20' })).toBe('podman');
  });
});
