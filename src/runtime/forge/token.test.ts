import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgeToken } from './token.js';

describe('the forge token', () => {
  it('JIG_FORGE_TOKEN first, then the forge’s own variables; the answer names the source only', async () => {
    expect(await forgeToken('github', 'github.com', { JIG_FORGE_TOKEN: 'a', GITHUB_TOKEN: 'b' })).toEqual({
      ok: true,
      token: 'a',
      source: 'JIG_FORGE_TOKEN',
    });
    expect(await forgeToken('github', 'github.com', { GH_TOKEN: ' c ', PATH: '' })).toEqual({
      ok: true,
      token: 'c',
      source: 'GH_TOKEN',
    });
    expect(await forgeToken('gitea', 'codeberg.org', { GITEA_TOKEN: 'd', GITHUB_TOKEN: 'x' })).toMatchObject({
      token: 'd',
      source: 'GITEA_TOKEN',
    });
  });

  it('falls back to the logged-in CLI, and says what to set when there is none', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'jig-gh-'));
    writeFileSync(
      join(bin, 'gh'),
      '#!/bin/sh\n[ "$1 $2 $3 $4" = "auth token --hostname ghe.example" ] && echo gho_fromcli\n',
    );
    chmodSync(join(bin, 'gh'), 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved ?? ''}`;
    try {
      expect(await forgeToken('github', 'ghe.example', {})).toEqual({
        ok: true,
        token: 'gho_fromcli',
        source: 'gh auth token',
      });
    } finally {
      process.env.PATH = saved;
    }
    expect(await forgeToken('gitlab', 'gitlab.com', {}, 1_000)).toEqual({
      ok: false,
      reason:
        "no gitlab token for gitlab.com: set JIG_FORGE_TOKEN, GITLAB_TOKEN in the server's environment, or log in with `glab auth login`",
    });
    expect(await forgeToken('gitea', 'codeberg.org', {})).toEqual({
      ok: false,
      reason: "no gitea token for codeberg.org: set JIG_FORGE_TOKEN, GITEA_TOKEN in the server's environment",
    });
  });
});
