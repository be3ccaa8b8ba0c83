import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bubblewrapFailsNow } from '../sandbox/detect.js';
import { writeFileAtomic } from './atomic-write.js';
import { defaultsConfigDir } from './seed.js';

/*
 * A new home jails every task where the machine can (issue 45, "default on"): the seeded
 * policy.yaml gets an instance sandbox of the best kind that works here. Only bubblewrap can be
 * seeded: podman and docker need an image, which is the repository's to name. Where it does not
 * work, the block is written commented out, with the reason, so turning it on is one edit; it is
 * not `kind: none`, which a chain's own sandbox would then conflict with (a sandbox is set once).
 * An existing home is never changed here: `jig admin doctor` proposes the line instead.
 */

/** Package registries a setup command reaches (`install` lists apply to the setup command only). */
const REGISTRIES = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'proxy.golang.org',
  'sum.golang.org',
  'index.crates.io',
  'static.crates.io',
  'rubygems.org',
  'repo.maven.apache.org',
];

/*
 * The model APIs' keys, as the agent CLIs send them. Each CLI trusts the jail's CA for the proxy's
 * certificate (checked with Claude Code, Codex and Gemini CLI against an HTTPS mock: the first and
 * last through NODE_EXTRA_CA_CERTS, Codex through SSL_CERT_FILE).
 */
const CREDENTIALS = [
  '{ env: ANTHROPIC_API_KEY, hosts: [api.anthropic.com], header: x-api-key }',
  "{ env: OPENAI_API_KEY, hosts: [api.openai.com], header: authorization, format: 'Bearer {value}' }",
  '{ env: GEMINI_API_KEY, hosts: [generativelanguage.googleapis.com], header: x-goog-api-key }',
];

const KNOB = 'JIG_SANDBOX_DEFAULT=none was set when this home was made';

const block = (why: string | null): string => {
  const lines = [
    'sandbox:',
    '  kind: bubblewrap',
    '  network:',
    '    allow: [] # hosts every task may reach; add what your tests fetch',
    '    install: # the setup command only',
    `      allow: [${REGISTRIES.join(', ')}]`,
    '  # API keys stay outside: inside, the variable holds a placeholder and the proxy sets the header',
    '  # (one whose variable is not set adds nothing)',
    '  credentials:',
    ...CREDENTIALS.map((c) => `    - ${c}`),
  ];
  const head = [
    '',
    '# Sandbox (docs/sandbox.md): every task of every item runs in a jail that sees its worktree and',
    "# little else, and reaches only the hosts listed here (each agent CLI's own model API and sign-in",
    '# are allowed for its tasks). A repository may set its own in repos.yaml.',
  ];
  if (why === null)
    return [
      ...head,
      '# Seeded because bubblewrap works on this machine; delete this block to run tasks unjailed.',
      ...lines,
      '',
    ].join('\n');
  const then = why === KNOB ? 'To turn it on,' : 'Install bubblewrap, then';
  return [
    ...head,
    `# Not on: ${why}. ${then} remove the leading # of the lines below.`,
    ...lines.map((l) => `# ${l}`),
    '',
  ].join('\n');
};

/**
 * Writes a new home's policy.yaml: the packaged file with the instance sandbox at its end, in one
 * atomic write (a crash leaves the file whole or absent, and an absent one is seeded at the next
 * start). `knob` is JIG_SANDBOX_DEFAULT: `none` writes it commented out without looking (the test
 * suite's servers); anything else looks. Answers the kind seeded, null for none, or `exists` when
 * the home has a policy.yaml already (it is never changed).
 */
export function seedPolicy(configDir: string, knob: string | undefined): 'bubblewrap' | null | 'exists' {
  const file = join(configDir, 'policy.yaml');
  if (existsSync(file)) return 'exists';
  const why = knob === 'none' ? KNOB : bubblewrapFailsNow();
  writeFileAtomic(file, readFileSync(join(defaultsConfigDir, 'policy.yaml'), 'utf8') + block(why));
  return why === null ? 'bubblewrap' : null;
}
