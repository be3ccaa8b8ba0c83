import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanupAll, runJig, startJig, tempHome } from './helpers/server.js';

afterEach(cleanupAll);

const policy1x = `# my policy
max_concurrent: 2
# nightly work
triggers:
  - cron: "0 3 * * *" # every night
    repo: /srv/app
    chain: default
    title: Nightly dependency bump
default:
  attempts: 3
`;

const intake1x = `enabled: false
interval_s: 300
max_concurrent: 5 # moved in 2.0
`;

const theme1x = `palette: rose # my favourite
mode: dark
board:
  group_by: template
  show_done: 5
`;

function oneXHome(): string {
  const home = tempHome();
  const t = join(home, 'templates');
  mkdirSync(join(t, 'steering'), { recursive: true });
  writeFileSync(join(t, 'policy.yaml'), policy1x);
  writeFileSync(join(t, 'intake.yaml'), intake1x);
  writeFileSync(join(t, 'theme.yaml'), theme1x);
  writeFileSync(join(t, 'steering', 'standards.md'), 'be nice\n');
  return home;
}

describe('a 1.x home', () => {
  it('renames templates/ to config/, leaves a link, and moves the keys that moved in 2.0', async () => {
    const home = oneXHome();
    const jig = await startJig({ home });
    const cfg = join(home, 'config');
    expect(lstatSync(join(home, 'templates')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(home, 'templates'))).toBe('config');
    expect(statSync(cfg).isDirectory()).toBe(true);

    // triggers -> schedules, comments of both files kept.
    const policyText = readFileSync(join(cfg, 'policy.yaml'), 'utf8');
    const intakeText = readFileSync(join(cfg, 'intake.yaml'), 'utf8');
    expect(parse(policyText)).toEqual({ max_concurrent: 2, default: { attempts: 3 } });
    expect(policyText).toContain('# my policy');
    expect(parse(intakeText)).toEqual({
      enabled: false,
      interval_s: 300,
      schedules: [
        { cron: '0 3 * * *', repo: '/srv/app', chain: 'default', title: 'Nightly dependency bump' },
      ],
    });
    expect(intakeText).toContain('# every night');
    // policy already had max_concurrent: intake's is dropped, policy's kept.
    expect(statSync(join(cfg, 'policy.yaml')).mode & 0o777).toBe(0o600);
    expect(statSync(join(cfg, 'intake.yaml')).mode & 0o777).toBe(0o600);

    // palette -> surface/accent/colour_amount; group_by template -> chain; original kept.
    expect(parse(readFileSync(join(cfg, 'theme.yaml'), 'utf8'))).toEqual({
      mode: 'dark',
      board: { group_by: 'chain', show_done: 5 },
      surface: 'warm',
      accent: 'rose',
      colour_amount: 40,
    });
    expect(readFileSync(join(cfg, 'theme.yaml.pre-2.0'), 'utf8')).toBe(theme1x);

    // Files 1.x lacked are seeded beside the moved ones.
    expect(existsSync(join(cfg, 'library.yaml'))).toBe(true);
    expect(existsSync(join(cfg, 'chains', 'default.yaml'))).toBe(true);

    const log = readFileSync(join(home, 'run', 'logs', 'server.log'), 'utf8');
    expect(log).toContain('renamed');
    expect(log).toContain('moved 1 schedule(s) from policy.yaml triggers: to intake.yaml schedules:');
    expect(log).toContain('dropped max_concurrent from intake.yaml: policy.yaml already sets one');
    expect(log).toContain('theme.yaml palette: rose became surface: warm, accent: rose, colour_amount: 40');
    expect(log).toContain('is no longer read');
    await jig.stop();

    // A second start finds nothing to move and tells the steering notice only once.
    const again = await startJig({ home });
    await again.stop();
    const log2 = readFileSync(join(home, 'run', 'logs', 'server.log'), 'utf8');
    expect(log2.split('is no longer read').length - 1).toBe(1);
    expect(log2.split('moved 1 schedule(s)').length - 1).toBe(1);
  });

  it('leaves a trigger whose cron does not parse in policy.yaml, so the good schedules stay on', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'templates'), { recursive: true });
    writeFileSync(
      join(home, 'templates', 'policy.yaml'),
      'triggers:\n  - {cron: "0 3 * * *", repo: /srv/app, chain: default, title: Good}\n  - {cron: "99 * * * *", repo: /srv/app, chain: default, title: Bad}\n',
    );
    const jig = await startJig({ home });
    expect(parse(readFileSync(join(home, 'config', 'policy.yaml'), 'utf8')).triggers).toEqual([
      { cron: '99 * * * *', repo: '/srv/app', chain: 'default', title: 'Bad' },
    ]);
    expect(parse(readFileSync(join(home, 'config', 'intake.yaml'), 'utf8')).schedules).toEqual([
      { cron: '0 3 * * *', repo: '/srv/app', chain: 'default', title: 'Good' },
    ]);
    const log = readFileSync(join(home, 'run', 'logs', 'server.log'), 'utf8');
    expect(log).toContain('left 1 whose cron does not parse in policy.yaml');
    await jig.stop();
  });

  it('moves intake max_concurrent into a policy that has none', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'templates'), { recursive: true });
    writeFileSync(join(home, 'templates', 'intake.yaml'), intake1x);
    writeFileSync(join(home, 'templates', 'policy.yaml'), 'default:\n  attempts: 2\n');
    const jig = await startJig({ home });
    expect(parse(readFileSync(join(home, 'config', 'policy.yaml'), 'utf8'))).toEqual({
      default: { attempts: 2 },
      max_concurrent: 5,
    });
    expect(parse(readFileSync(join(home, 'config', 'intake.yaml'), 'utf8'))).toEqual({
      enabled: false,
      interval_s: 300,
    });
    await jig.stop();
  });

  it('does not move a templates link that points elsewhere, and says how to use it', async () => {
    const home = tempHome();
    const target = join(tempHome(), 'my-templates');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'policy.yaml'), policy1x);
    symlinkSync(target, join(home, 'templates'));
    const jig = await startJig({ home });
    expect(lstatSync(join(home, 'templates')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(target, 'policy.yaml'), 'utf8')).toBe(policy1x);
    const log = readFileSync(join(home, 'run', 'logs', 'server.log'), 'utf8');
    expect(log).toContain(`start Jig with JIG_CONFIG_DIR=${target}`);
    await jig.stop();
  });

  it('refuses to start when JIG_TEMPLATES_DIR names a templates/ beside an existing config/', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'templates'), { recursive: true });
    mkdirSync(join(home, 'config'), { recursive: true });
    const r = await runJig(['serve', '--port', '0'], {
      JIG_HOME: home,
      JIG_TEMPLATES_DIR: join(home, 'templates'),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `JIG_TEMPLATES_DIR names ${join(home, 'templates')}, but ${join(home, 'config')} also exists`,
    );
    expect(r.stderr).toContain('Merge the two folders');
  });

  it('refuses to start when templates/ and config/ both exist in the home', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'templates'), { recursive: true });
    mkdirSync(join(home, 'config'), { recursive: true });
    const r = await runJig(['serve', '--port', '0'], { JIG_HOME: home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('both exist. Merge templates/ into config/');
  });
});
